"""One encoder per game: `make_encoder(game) -> coliseo.rl.encoding.Encoder`."""
