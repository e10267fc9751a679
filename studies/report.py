"""A study's statistics (metrics.Tally.summary) as a designer reads them: text for the
terminal, or one self-contained HTML page with charts (matplotlib, drawn to PNG and embedded,
so the page is one file to keep or send) and the run's provenance.
"""

from __future__ import annotations

import base64
import html
import io
import json
from typing import Any

FAIR = "all seats equally likely to win?"


# The chi-square's p-value is an approximation that wants 5 wins or more expected of each seat.
_FEW = " (too few matches to trust: each seat is expected to win under 5 times)"


ROTATED = "seats rotated: each bot one seat on from match to match"
FIXED = "seats not rotated: each seat kept its bot"
_MIXED = (" (each seat kept a bot of its own: this tests the bots as much as the seats; "
          "--rotate-seats tells the two apart)")
EVEN = "all bots equally likely to win, whatever their seat?"
_FEW_BOTS = " (too few matches to trust: each bot is expected to win under 5 times)"
_UNEVEN = (" (the matches are no multiple of the seats: some bots sat in some seats once more "
           "than in others)")


def _places(places: list[dict[str, Any]], titles: tuple[str, str], key: str,
            bot: Any) -> list[str]:
    """A table of wins and scores, a line per seat (or, rotated, per bot of the arm)."""
    wide = max([8, *(len(bot(s)) + 2 for s in places)])
    lines = [f"{titles[0]:<5}{titles[1]:<{wide}}{'wins':>6}{'shared':>8}{'win share [95%]':>24}"
             f"{'score mean':>12}{'stdev':>7}{'min':>6}{'max':>6}"]
    for s in places:
        share, score = s["win_share"], s["score"]
        lines.append(f"{s[key]:<5}{bot(s):<{wide}}{s['wins']:>6}{s['shared_wins']:>8}"
                     f"{share['value']:>9.3f} [{share['low']:.3f}, {share['high']:.3f}]"
                     f"{score.get('mean', 0):>12.1f}{score.get('stdev', 0):>7.1f}"
                     f"{score.get('min', 0):>6}{score.get('max', 0):>6}")
    return lines


def _signed(value: float, digits: int) -> str:
    return f"{value:+.{digits}f}"


def _between(interval: dict[str, Any], digits: int, matches: int) -> str:
    """An interval's ends, or what stands for none: one match, or matches that all gave the
    same difference, show no spread."""
    if interval["low"] is None:
        return ("[no interval from one match]" if matches < 2 else
                "[no interval: every match gave this difference]")
    return f"[{_signed(interval['low'], digits)}, {_signed(interval['high'], digits)}]"


def text(summary: dict[str, Any], name: str, elapsed: float | None = None,
         jobs: int | str = 1, kept: int = 0) -> str:
    """The study as text: each arm's table of seats and its figures, then each arm's
    difference from the first. `elapsed`: the seconds the run took, to print its rate, of
    the matches it played: not the `kept` ones a resumed run found played before it."""
    blocks = []
    several = len(summary["arms"]) > 1
    for arm in summary["arms"]:
        n = arm["matches"]
        head = f"{name} ({arm['variant']}, {len(arm['seats'])} players)"
        head += f" [{arm['label']}]" if several else ""
        box = arm.get("box") or {}
        if any(k.casefold() not in arm["label"].casefold() for k in box):  # its label does not say
            head += " [box: " + ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}"
                                          for k, v in box.items()) + "]"
        head += f": {n} matches"
        if elapsed and not several:
            head += _rate(n - kept, kept, elapsed, jobs)
        rotated = "bots" in arm
        # fixed seats with bots that differ: the seats' test weighs the bots as much as the seats
        mixed = not rotated and len({s["bot"] for s in arm["seats"]}) > 1
        if rotated:
            head += f" ({ROTATED})"
        elif mixed:
            head += f" ({FIXED})"
        lines = [head, *_places(arm["seats"], ("seat", "bot"), "seat",
                                lambda s, every=rotated: "every bot" if every else s["bot"])]
        uneven = _UNEVEN if rotated and n % len(arm["seats"]) else ""
        test = arm["equal_shares"]
        lines.append(f"{FAIR} chi-square {test['chi_square']:.2f} on {test['df']} df, "
                     f"p = {test['p_value']:.3g}" + (_FEW if n < 5 * len(arm["seats"]) else "")
                     + uneven + (_MIXED if mixed else ""))
        if rotated:
            lines += _places(arm["bots"], ("bot", "kind"), "bot_index", lambda s: s["bot"])
            test = arm["equal_bot_shares"]
            lines.append(f"{EVEN} chi-square {test['chi_square']:.2f} on {test['df']} df, "
                         f"p = {test['p_value']:.3g}"
                         + (_FEW_BOTS if n < 5 * len(arm["bots"]) else "") + uneven)
        margin, length = arm["margin"], arm["length"]
        if n:
            lines.append(f"ties {arm['ties']['rate']:.1%} of matches; margin of victory "
                         f"(a tie's 0) mean {margin['mean']:.1f}, p10 {margin['p10']:g}, "
                         f"p50 {margin['p50']:g}, p90 {margin['p90']:g}")
            lines.append(f"actions per match: mean {length['mean']:.1f}, "
                         f"stdev {length['stdev']:.1f}, min {length['min']}, "
                         f"max {length['max']}, p10 {length['p10']:g}, p50 {length['p50']:g}, "
                         f"p90 {length['p90']:g}")
            lines.append("per match: " + ", ".join(f"{k.replace('_', ' ')} {v:.2f}"
                                                   for k, v in arm["figures"].items()))
        if arm["missions"]:
            lines.append("missions (held, achieved, win share of its holder): " + ", ".join(
                f"{m['mission']} {m['held']} {m['achieved']:.2f} {m['win_share']:.3f}"
                for m in arm["missions"]))
        blocks.append("\n".join(lines))
    if summary["differences"]:
        lines = [f"Against [{summary['arms'][0]['label']}], paired on the same "
                 f"{summary['matches']} deals (95% intervals):"]
        for difference in summary["differences"]:
            lines.append(f"[{difference['label']}]")
            bots = summary["arms"][0].get("bots")
            for s in [*difference["seats"], *difference.get("bots", [])]:
                share, score = s["win_share"], s["score"]
                place = (f"seat {s['seat']:<3}" if "seat" in s else
                         f"bot {s['bot_index']} ({bots[s['bot_index']]['bot']} in the first)")
                lines.append(
                    f"  {place} win share {_signed(share['difference'], 3)} "
                    f"[{_signed(share['low'], 3)}, {_signed(share['high'], 3)}]   mean score "
                    f"{_signed(score['difference'], 2)} {_between(score, 2, summary['matches'])}")
        blocks.append("\n".join(lines))
    if several and elapsed:
        # counted in matches, each played by every arm (the rate too): "294 played now: 106
        # resumed" of 200 matches counted a match once per arm
        blocks.append(f"{summary['matches']} matches × {len(summary['arms'])} arms"
                      + _rate(summary["matches"] - kept, kept, elapsed, jobs,
                              " (every arm)"))
    return "\n\n".join(blocks)


def unfinished(summary: dict[str, Any], meta: dict[str, Any]) -> str | None:
    """That the records are of a run not played to its end, how far it got and why, or None.
    The matches are those the records hold whole (a run still playing writes its count in the
    side file only as it stops). A study played over HTTP that ended early was cancelled or
    failed, and its `error` says why: its people read that, not a records file's story. Records
    that hold fewer whole matches than their side file says were played (a copy cut short, rows
    taken out) are said to, as a run not played to its end would be."""
    study, shard = meta["study"], meta.get("shard")
    total = len(range(shard[0], study["matches"], shard[1])) if shard else study["matches"]
    if meta.get("status") == "complete":
        whole, played = summary["matches"], meta.get("played", total)
        if whole == played:
            return None
        if whole > played:
            return (f"Records changed: {whole} whole matches where their side file says "
                    f"{played} were played (rows added since): these figures are not the "
                    "study's.")
        return (f"Records cut short: {whole} whole match{'' if whole == 1 else 'es'} of the "
                f"{played} their side file says were played (the file was copied in part, or "
                "changed since): these figures are not the study's.")
    if meta.get("status") in ("cancelled", "failed"):
        ended = "was cancelled" if meta["status"] == "cancelled" else "failed"
        said = f"The study {ended} after {summary['matches']} of {total} matches"
        return f"{said}: {meta['error']}" if meta.get("error") else f"{said}."
    why = ("stopped: the command that made it, with --resume, plays the rest"
           if meta.get("status") == "interrupted" else
           "still being played, or ended before it could write that it stopped")
    return f"Unfinished run: {summary['matches']} of {total} matches ({why})."


def _rate(played: int, kept: int, elapsed: float, jobs: int | str, each: str = "") -> str:
    """How fast the run played its matches; a resumed run's `kept` ones are not its own.
    `jobs`: its processes, or where it played, in words (a Dask cluster's address)."""
    said = f" in {elapsed:.2f} s"
    if kept:
        said += f" (the {played} matches played now: {kept} were resumed from the records)"
    if played:
        said += f" = {played / elapsed:.1f} matches/s{each}"
    if isinstance(jobs, str):
        return f"{said} on {jobs}"
    return said + f" on {jobs} process{'es' if jobs > 1 else ''}"


def _png(figure: Any) -> str:
    """A figure as a data URI, and the figure closed (pyplot keeps every open one)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    plt.close(figure)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def _box(stats: dict[str, float], label: str) -> dict[str, Any]:
    """matplotlib's box statistics from a spread: the box p25–p75, the whiskers p10–p90."""
    return {"label": label, "med": stats["p50"], "q1": stats["p25"], "q3": stats["p75"],
            "whislo": stats["p10"], "whishi": stats["p90"], "mean": stats["mean"],
            "fliers": []}


def _by_seat(axes: Any, arms: list[dict[str, Any]], width: float, label: str,
             key: str = "seats") -> None:
    """A chart of one group per seat (or per bot of the arms' lists), each arm's bar or box
    side by side in it: each named under the group's middle with the bot it held in each arm
    in turn (a fixed seat's bot; a bot whichever seat it sat in; a rotated seat held every
    bot, and is named alone), the value axis labelled, the arms in a legend."""
    places = len(arms[0][key])
    axes.set_xticks([place + width * (len(arms) - 1) / 2 for place in range(places)],
                    [_place_name(arms, key, place) for place in range(places)])
    axes.set_ylabel(label)
    _legend(axes)


def _place_name(arms: list[dict[str, Any]], key: str, place: int) -> str:
    """"seat 0 (greedy / random)": the place, with its bot in each arm, in the arms' order
    (one name where they all held the same)."""
    bots = list(dict.fromkeys(arm[key][place]["bot"] for arm in arms if arm[key][place]["bot"]))
    name = f"{'seat' if key == 'seats' else 'bot'} {place}"
    return f"{name}\n({' / '.join(bots)})" if bots else name


def _legend(axes: Any) -> None:
    """The arms' legend beside the chart, where no label however long covers a bar or an
    interval (the page's figure grows to hold it)."""
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


def _reach(values: list[float], intervals: list[dict[str, float]]) -> list[list[float]]:
    """matplotlib's error bars (how far below, how far above each value) of intervals: never
    less than nothing, which matplotlib refuses, should a bound lie a rounding error past its
    value. A difference with no interval (every match gave it) is drawn with no bar."""
    return [[0.0 if i["low"] is None else max(0.0, v - i["low"])
             for v, i in zip(values, intervals, strict=True)],
            [0.0 if i["high"] is None else max(0.0, i["high"] - v)
             for v, i in zip(values, intervals, strict=True)]]


def charts(summary: dict[str, Any], unit: str = "points") -> list[tuple[str, str]]:
    """(caption, data URI) of each chart of the study, its scores counted in `unit` ("₩" for
    a game that counts money). Its labels are written by people (a compared box's constants, a
    mission's name from a box) and drawn as written: `$` is no math text here, where "Lucky
    $x^^2$ Coin" would stop the drawing."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display to find
    import matplotlib.pyplot as plt

    with plt.rc_context({"text.parse_math": False}):
        return _charts(summary, plt, unit)


def _shares(plt: Any, arms: list[dict[str, Any]], key: str, width: float) -> str:
    """The chart of each arm's win shares per seat (or per bot of its list), with their
    intervals and the equal share."""
    places = len(arms[0][key])
    figure, axes = plt.subplots(figsize=(7, 3.5))
    for number, arm in enumerate(arms):
        values = [s["win_share"]["value"] for s in arm[key]]
        axes.bar([place + number * width for place in range(places)], values, width,
                 yerr=_reach(values, [s["win_share"] for s in arm[key]]), capsize=3,
                 label=arm["label"])
    axes.axhline(1 / places, color="black", linestyle="--", linewidth=1, label="equal share")
    _by_seat(axes, arms, width, "win share (95% interval)", key)
    return _png(figure)


def _charts(summary: dict[str, Any], plt: Any, unit: str) -> list[tuple[str, str]]:
    arms = [a for a in summary["arms"] if a["matches"]]
    if not arms:
        return []
    seats = len(arms[0]["seats"])
    width = 0.8 / len(arms)
    drawn = []

    drawn.append(("Win share per seat, with its 95% Wilson interval; the dashed line is an "
                  "equal share. " + ("The seats were rotated: each held every bot in turn."
                                     if "bots" in arms[0] else
                                     "Each seat kept its bot (under it, in each arm in turn)."),
                  _shares(plt, arms, "seats", width)))
    if "bots" in arms[0]:  # rotated: each of the arms' bots, whichever seat it sat in
        drawn.append(("Win share per bot of the arms' lists, whichever seat it sat in (the "
                      "seats rotated): bot k is each arm's k-th, named under it in each arm in "
                      "turn; the dashed line is an equal share.",
                      _shares(plt, arms, "bots", width)))

    figure, axes = plt.subplots(figsize=(7, 3.5))
    for number, arm in enumerate(arms):
        axes.bxp([_box(s["score"], str(s["seat"])) for s in arm["seats"]],
                 positions=[seat + number * width for seat in range(seats)],
                 widths=width * 0.8, showmeans=True, patch_artist=True,
                 boxprops={"facecolor": f"C{number}", "alpha": 0.6},
                 label=arm["label"])
    _by_seat(axes, arms, width, "score")
    drawn.append(("Score per seat: box p25–p75, line the median, whiskers p10–p90, triangle "
                  "the mean.", _png(figure)))

    figure, (length, margin) = plt.subplots(1, 2, figsize=(8, 3.2))
    labels = [arm["label"] for arm in arms]
    length.bxp([_box(arm["length"], label) for arm, label in zip(arms, labels, strict=True)],
               showmeans=True)
    length.set_title("actions per match", fontsize="medium")
    margin.bxp([_box(arm["margin"], label) for arm, label in zip(arms, labels, strict=True)],
               showmeans=True)
    margin.set_title(f"margin of victory ({unit})", fontsize="medium")
    for axes in (length, margin):
        axes.tick_params(axis="x", labelrotation=20, labelsize="small")
    drawn.append(("Match length and margin of victory per arm (p10, p25, median, p75, p90; "
                  "triangle the mean; a tie's margin is 0).", _png(figure)))

    if summary["differences"] and summary["matches"] > 1:  # one match: no interval to draw
        # per seat, and where the seats rotated, per bot of the arms' lists too
        for key, index in (("seats", "seat"), ("bots", "bot_index")):
            if key not in summary["differences"][0]:
                continue
            figure, (shares, scores) = plt.subplots(1, 2, figsize=(8, 3.2))
            rows = len(summary["differences"])
            step = 0.8 / rows
            for number, difference in enumerate(summary["differences"]):
                # each arm in its colour of the charts above, not the first arm's
                colour = f"C{labels.index(difference['label'])}" \
                    if difference["label"] in labels else None
                points = difference[key]
                for axes, value in ((shares, "win_share"), (scores, "score")):
                    middle = [s[value]["difference"] for s in points]
                    axes.errorbar([s[index] + number * step for s in points], middle,
                                  yerr=_reach(middle, [s[value] for s in points]),
                                  fmt="o", capsize=3, label=difference["label"], color=colour)
            for axes, title in ((shares, "win share"), (scores, "mean score")):
                axes.axhline(0, color="black", linewidth=1)
                # each named under the middle of its arms' points, not under the first's
                axes.set_xticks([place + step * (rows - 1) / 2 for place in range(seats)],
                                [_place_name(arms, key, place) for place in range(seats)])
                # the first arm named in the caption: a long label's titles ran into each other
                axes.set_title(f"{title} − the first arm's", fontsize="medium")
            _legend(scores)
            per = "seat" if key == "seats" else "bot of the arms' lists, whichever seat it sat in"
            drawn.append((f"Each arm's difference from the first "
                          f"([{summary['arms'][0]['label']}]) per {per}, paired on the same "
                          "deals, with its 95% interval: an interval clear of zero is a "
                          "difference.", _png(figure)))

    # Each arm's missions: an arm may change them (MISSIONS), and its chart is the one that
    # shows it. A mission is named with how often it was held, as a share of two is no share
    # of two hundred.
    for arm in arms:
        missions = arm["missions"]
        if not missions:
            continue
        figure, axes = plt.subplots(figsize=(7, 0.3 * len(missions) + 1))
        names = [f"{m['mission']} (held {m['held']})" for m in missions]
        axes.barh(names, [m["win_share"] for m in missions], label="win share of its holder")
        axes.barh(names, [m["achieved"] for m in missions], height=0.3,
                  label="achieved")
        axes.axvline(1 / seats, color="black", linestyle="--", linewidth=1,
                     label="equal share")
        axes.legend(fontsize="small")
        drawn.append((f"Missions in [{arm['label']}]: how often each is achieved and its "
                      "holder wins, and how many times it was held; the dashed line is an "
                      "equal share of the wins.", _png(figure)))
    return drawn


def unit_of(game_id: str) -> str:
    """What a game's scores count: its currency where it counts money, else points."""
    from scoring.games import GAMES

    game = GAMES.get(game_id)
    return getattr(game.box, "CURRENCY", None) or "points" if game else "points"


def page(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    """The study as one HTML page: charts, the text report, the provenance."""
    name = meta["study"]["name"]
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8>"
             f"<title>{html.escape(name)} study</title>"
             "<style>body{font-family:sans-serif;max-width:60rem;margin:auto;padding:1rem}"
             "img{max-width:100%}pre{overflow-x:auto;background:#f5f5f5;padding:.5rem}"
             "</style>",
             f"<h1>{html.escape(name)}: {summary['matches']} matches, "
             f"{len(summary['arms'])} arm{'s' if len(summary['arms']) > 1 else ''}</h1>"]
    if (stopped := unfinished(summary, meta)) is not None:
        parts.append(f"<p><strong>{html.escape(stopped)}</strong></p>")
    for caption, uri in charts(summary, unit_of(meta["study"]["game"])):
        parts.append(f"<figure><img src=\"{uri}\" alt=\"{html.escape(caption)}\">"
                     f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    parts.append(f"<h2>Statistics</h2><pre>{html.escape(text(summary, name))}</pre>")
    parts.append(f"<h2>Provenance</h2><pre>{html.escape(json.dumps(meta, indent=1))}</pre>")
    return "\n".join(parts) + "\n</html>\n"
