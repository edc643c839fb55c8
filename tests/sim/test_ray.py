"""The Ray backend, on a local Ray started for the run, gives the same games as the local backend."""

from coliseo.sim.run import make_config, simulate


def test_ray_backend_gives_the_same_games_as_local_processes(tmp_path):
    config = make_config("capsule", ["greedy", "random"], seed=21)
    local = simulate(config, 4)
    assert simulate(config, 4, tmp_path / "ray.jsonl", workers=2, backend="ray") == local
