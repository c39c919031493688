"""The progress bar, driven by a fake clock."""

import io

from training.arena.progress import ProgressBar, format_duration


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
