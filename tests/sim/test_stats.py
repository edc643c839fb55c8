"""Win rates with Wilson intervals, seat and first-mover advantage, item lifts."""

import pytest

from coliseo.sim.stats import item_lifts, pairings, pairings_both_orders, summarize, wilson


def row(index, seats, winners, first=0, length=10, items=None):
    return {"index": index, "seed": index, "seats": seats, "winners": winners, "reason": "x", "scores": None,
            "length": length, "first_player": first, "items": items or [[] for _ in seats]}


def test_wilson_interval_matches_the_textbook_values():
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(60, 100)[0] == pytest.approx(0.5020, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_counts_wins_draws_seats_and_first_mover():
    rows = [row(0, ["a", "b"], [0], length=10), row(1, ["b", "a"], [1], length=20),
            row(2, ["a", "b"], [], length=30), row(3, ["b", "a"], [0], length=40)]
    s = summarize(rows)
    assert s["agents"]["a"]["win"]["count"] == 2 and s["agents"]["b"]["win"]["count"] == 1
    assert s["agents"]["a"]["draw"]["count"] == 1
    assert s["seats"][0]["win"]["count"] == 2 and s["seats"][1]["win"]["count"] == 1
    assert s["first_player"]["count"] == 2 and s["first_player"]["games"] == 4
    assert s["mean_length"] == 25 and s["median_length"] == 25


def test_item_lift_points_at_the_strong_item():
    rows = []
    for i in range(40):
        strong_side = i % 2
        items = [["x"], ["x"]]
        items[strong_side] = ["dragon"]
        rows.append(row(i, ["a", "b"], [strong_side] if i % 5 else [1 - strong_side], items=items))
    lifts = {r["item"]: r for r in item_lifts(rows)}
    assert lifts["dragon"]["win_rate"] == pytest.approx(0.8)
    assert lifts["dragon"]["lift_low"] > 0 > lifts["x"]["lift_high"]


def test_each_match_up_has_every_seats_win_rate_and_a_fairness_verdict():
    stone_first = [row(i, ["a", "a"], [0] if i % 10 else [1], items=[["preset=stone"], ["preset=dawn"]])
                   for i in range(100)]
    dawn_first = [row(100 + i, ["a", "a"], [i % 2], first=1, items=[["preset=dawn"], ["preset=stone"]])
                  for i in range(400)]
    by_sides = {tuple(p["sides"]): p for p in pairings(stone_first + dawn_first)}
    lopsided, even = by_sides["stone", "dawn"], by_sides["dawn", "stone"]
    assert lopsided["games"] == 100 and lopsided["seats"][0]["rate"] == pytest.approx(0.9)
    assert lopsided["first_player"]["rate"] == pytest.approx(0.9) and not lopsided["fair"]
    assert even["seats"][1]["count"] == 200 and even["first_player"]["rate"] == pytest.approx(0.5) and even["fair"]


def test_a_rate_inside_the_band_is_not_fair_when_its_interval_misses_the_even_split():
    rows = [row(i, ["a", "a"], [0] if i < 5400 else [1]) for i in range(10000)]   # 54% over 10,000 games
    assert not pairings(rows)[0]["fair"]


def test_a_rate_on_the_bands_edge_is_fair():
    rows = [row(i, ["a", "a"], [0] if i < 55 else [1]) for i in range(100)]   # 55 / 45 of 100 games
    assert pairings(rows)[0]["fair"]


def test_a_pairing_over_both_orders_counts_each_sides_wins_in_either_seat():
    """Stone wins 90 of 100 moving first and Dawn 55 of 100 moving first: Stone 135 of 200 over both orders."""
    stone_first = [row(i, ["a", "a"], [0] if i % 10 else [1], items=[["preset=stone"], ["preset=dawn"]])
                   for i in range(100)]
    dawn_first = [row(100 + i, ["a", "a"], [0] if i < 55 else [1], items=[["preset=dawn"], ["preset=stone"]])
                  for i in range(100)]
    unfinished = [row(200, ["a", "a"], None, items=[["preset=dawn"], ["preset=stone"]])]
    [pairing] = pairings_both_orders(stone_first + dawn_first + unfinished)
    assert pairing["sides"] == ["stone", "dawn"] and pairing["games"] == 200
    assert pairing["first_side"]["count"] == 135 and not pairing["fair"]
    first_mover_wins = [row(i, ["a", "a"], [0], items=[["preset=x"], ["preset=y"]][::1 - 2 * (i % 2)])
                        for i in range(100)]                    # the seats alternate; Player 1 always wins
    [even] = pairings_both_orders(first_mover_wins)
    assert even["first_side"]["rate"] == 0.5 and even["fair"]
