"""The Ray backend, on a local Ray started for the run, gives the same games as the local backend."""

from coliseo.sim.run import make_config, simulate


def test_ray_backend_gives_the_same_games_as_local_processes(tmp_path):
    config = make_config("capsule", ["greedy", "random"], seed=21)
    local = simulate(config, 4)
    assert simulate(config, 4, tmp_path / "ray.jsonl", workers=2, backend="ray") == local


def test_an_unreachable_ray_cluster_is_a_clear_error(tmp_path):
    import socket

    import pytest

    from coliseo.core.errors import SetupError

    with socket.socket() as s:                 # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = make_config("capsule", ["greedy", "random"], seed=21)
    with pytest.raises(SetupError, match=f"cannot join the Ray cluster at ray://127.0.0.1:{port}"):
        simulate(config, 2, tmp_path / "ray.jsonl", backend="ray", address=f"ray://127.0.0.1:{port}")
