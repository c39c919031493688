"""The progress bar, driven by a fake clock."""

import io

from mazzo.arena.progress import ProgressBar, format_duration


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_bar_draws_rate_eta_and_finishes_the_line():
    clock, out = Clock(), io.StringIO()
    bar = ProgressBar(label="eval", unit="deals", stream=out, width=10, interval=1.0, clock=clock)
    bar.start(200)
    clock.now += 10
    bar.advance(50)
    assert out.getvalue() == "\reval [##........]  25%  50/200 deals  5.0/s  ETA 30s\x1b[K"
    clock.now += 0.5
    bar.advance(10)  # within the interval: not redrawn
    assert out.getvalue().count("\r") == 1
    clock.now += 29.5
    bar.advance(500)  # clipped at the total; the last step is always drawn
    assert bar.done == 200 and out.getvalue().endswith("200/200 deals  5.0/s  in 40s\x1b[K")
    bar.close()
    bar.close()  # idempotent
    assert out.getvalue().endswith("\n") and out.getvalue().count("\n") == 1


def test_nothing_is_drawn_before_start():
    out = io.StringIO()
    ProgressBar(stream=out).close()
    assert out.getvalue() == ""
    with ProgressBar(3, stream=out, clock=Clock()) as bar:
        bar.advance(3)
    assert out.getvalue().startswith("\r[##") and out.getvalue().endswith("\n")


def test_format_duration():
    assert [format_duration(s) for s in (0, 9.4, 75.2, 3725)] == ["0s", "9s", "1m15s", "1h02m"]


def test_slow_rates_keep_two_significant_digits():
    from mazzo.arena.progress import format_rate

    rates = [120.3, 10, 9.99, 5, 1, 0.5, 0.04, 0.01, 1e-4, 0]
    assert [format_rate(r) for r in rates] == [
        "120/s", "10/s", "10/s", "5.0/s", "1.0/s", "30/min", "2.4/min", "36/h", "0.36/h", "0.0/h"
    ]  # fmt: skip
    assert format_rate(0.16, "games") == "9.6 games/min"


def test_slow_deals_show_a_rate_and_an_eta_from_the_first_deal():
    clock, out = Clock(), io.StringIO()
    bar = ProgressBar(label="eval", unit="deals", stream=out, width=10, clock=clock)
    bar.start(100)
    clock.now += 25.0  # one PIMC deal
    bar.advance(1)
    assert out.getvalue().endswith("1/100 deals  2.4/min  ETA 41m15s\x1b[K")
