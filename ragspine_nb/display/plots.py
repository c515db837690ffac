"""Bar charts of evaluation figures on a matplotlib ``Axes`` the caller provides.

Plain data in, the same ``Axes`` out: reports call :func:`bar_chart` with their rates,
so the figures a stakeholder sees are the ones the report computed. Targets are drawn
as dashed lines, so a bar under its target is visible at a glance. Nothing here imports
matplotlib: the caller made the ``Axes`` (the eval reports make one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["bar_chart"]


def bar_chart(ax: Any, groups: Mapping[str, Mapping[str, float]], *, title: str,
              targets: Mapping[str, float] | None = None,
              ylim: tuple[float, float] = (0, 1.05), ylabel: str = "rate (0–1)") -> Any:
    """Grouped bars: one group per key of ``groups``, one bar per series inside it.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw.
    groups : mapping of str to mapping of str to float
        ``{group: {series: value}}``, e.g. ``{"single_cell": {"precision": 0.99}}``.
    title : str
        The chart's title.
    targets : mapping of str to float, optional
        ``{series: target}``: a dashed line per series at its target.
    ylim : (float, float)
        The value axis range (rates by default).
    ylabel : str
        The value axis label, with its unit.

    Returns
    -------
    matplotlib Axes
    """
    names = list(groups)
    series = list(dict.fromkeys(s for g in groups.values() for s in g))
    width = 0.8 / max(len(series), 1)
    colors = [f"C{i}" for i in range(10)]  # the style's colour cycle, by name
    for i, s in enumerate(series):
        at = [j for j, g in enumerate(names) if s in groups[g]]  # absent: no bar, no "0"
        xs = [j + (i - (len(series) - 1) / 2) * width for j in at]
        ys = [groups[names[j]][s] for j in at]
        bars = ax.bar(xs, ys, width, label=s, color=colors[i % len(colors)])
        # a zero bar gets no label: side by side, "0.000"s run into one another
        ax.bar_label(bars, labels=[f"{y:.3f}" if y else "" for y in ys], fontsize=7, padding=1)
        if targets and s in targets:
            ax.axhline(targets[s], linestyle="--", linewidth=0.8,
                       color=colors[i % len(colors)], label=f"{s} target ({targets[s]:g})")
    ax.set_xticks(range(len(names)), names)
    ax.set_ylim(*ylim)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    # outside the axes, right of the plot: a legend never covers a bar
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return ax
