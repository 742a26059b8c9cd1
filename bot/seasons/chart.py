"""The stats card's chart: the display rating after each match, as a small PNG."""

from __future__ import annotations

import io
from collections.abc import Sequence

from bot.seasons.rating import DISPLAY_BASE


def rating_chart(ratings: Sequence[float], title: str, x_label: str, y_label: str) -> bytes:
    """A small PNG of the rating after each match (blocking: call it in a thread)."""
    # Figure + Agg canvas, never pyplot: no global state, safe outside the main thread.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 2.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = list(range(1, len(ratings) + 1))
    ax.plot(xs, list(ratings), marker="o", markersize=3, linewidth=1.6, color="#5865F2")
    ax.axhline(DISPLAY_BASE, color="#999999", linewidth=0.6)  # where everyone starts
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(x_label, fontsize=8)
    ax.set_ylabel(y_label, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    if len(xs) <= 12:
        ax.set_xticks(xs)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
