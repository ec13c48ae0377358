"""Charts made by matplotlib, made fit to sit inside a page: :func:`inline_svg`.

A chart is drawn by our own code (:mod:`referee.analysis.charts`) from numbers and a
few names from the table (character ids). Before it goes into a page it is parsed and
written again keeping only what a plain chart needs - known elements, known
attributes, references to its own ids - so nothing it carries can run or fetch:
no script, no event attribute, no outside link. Text stays text (escaped when
written). Three more things make it fit the page:

* **Styles become attributes.** The pages' Content-Security-Policy allows no inline
  style, and matplotlib writes ``style="fill: ...; stroke: ..."``; each property is
  written as the SVG attribute of the same name (and properties not in the list go).
* **Ids are prefixed** with the chart's own name, so two charts on one page never
  share an id (matplotlib names its clip paths and markers by their contents).
* **A title**: ``role="img"`` and a ``<title>`` the ``aria-labelledby`` points to.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Final

SVG: Final = "http://www.w3.org/2000/svg"
XLINK: Final = "http://www.w3.org/1999/xlink"

ELEMENTS: Final = frozenset(
    {"svg", "g", "defs", "path", "text", "tspan", "rect", "use", "clipPath", "line", "circle"}
)
"""The elements a chart keeps (matplotlib's metadata and style sheet go)."""

ATTRIBUTES: Final = frozenset(
    {"d", "x", "y", "width", "height", "viewBox", "transform", "id", "clip-path", "href"}
)

PRESENTATION: Final = frozenset(
    {
        "fill",
        "fill-opacity",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-miterlimit",
        "opacity",
        "font-size",
        "font-family",
        "font-weight",
        "font-style",
        "text-anchor",
        "clip-path",
    }
)
"""Style properties written as attributes (the others are dropped)."""

_SAFE_VALUE = re.compile(r"^[A-Za-z0-9#.,%'\" ()_+-]*$")
_URL = re.compile(r"url\(#([A-Za-z0-9_.-]+)\)")


class ChartError(ValueError):
    """A chart that is not the SVG our code draws."""


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _value(value: str, prefix: str) -> str | None:
    """An attribute value kept as it is, with its ``url(#id)`` references prefixed, or
    ``None`` when it holds anything but a plain value (another ``url(...)``, markup)."""
    if not _SAFE_VALUE.match(value):
        return None
    if "(" in _URL.sub("", value):
        return None
    return _URL.sub(lambda m: f"url(#{prefix}-{m.group(1)})", value)


def _copy(node: ET.Element, prefix: str) -> ET.Element | None:
    name = _local(node.tag)
    if name not in ELEMENTS:
        return None
    out = ET.Element(f"{{{SVG}}}{name}")
    attrs: dict[str, str] = {}
    for key, raw in node.attrib.items():
        local = _local(key)
        if local == "style":
            for part in raw.split(";"):
                prop, _, val = part.partition(":")
                prop, val = prop.strip(), val.strip()
                if prop in PRESENTATION and val:
                    attrs.setdefault(prop, val)
            continue
        if local not in ATTRIBUTES and local not in PRESENTATION:
            continue
        if local == "href":
            if not raw.startswith("#"):
                continue
            attrs["href"] = f"#{prefix}-{raw[1:]}"
            continue
        attrs[local] = raw
    for key, raw in attrs.items():
        if key == "id":
            if not re.match(r"^[A-Za-z0-9_.-]+$", raw):
                continue
            out.set("id", f"{prefix}-{raw}")
        elif key in ("d", "transform", "viewBox"):
            if re.match(r"^[-0-9.,eE \nA-Za-z()]*$", raw) and "url" not in raw:
                out.set(key, raw)
        else:
            kept = _value(raw, prefix)
            if kept is not None:
                out.set(key, kept)
    out.text = node.text if name in ("text", "tspan") else None
    for child in node:
        copied = _copy(child, prefix)
        if copied is not None:
            out.append(copied)
        if name in ("text", "tspan") and child.tail:
            (copied if copied is not None else out).tail = child.tail
    return out


def inline_svg(svg: str, title: str, prefix: str) -> str:
    """The chart ``svg`` (matplotlib's text) rewritten to sit inside a page, titled
    ``title``, its ids prefixed with ``prefix`` (see the module text)."""
    if not re.match(r"^[a-z][a-z0-9-]{0,30}$", prefix):
        raise ChartError(f"a chart's prefix is lower-case letters, digits and -, not {prefix!r}")
    text = re.sub(r"<!DOCTYPE[^>]*>", "", svg, count=1)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise ChartError(f"not a chart: {e}") from None
    if _local(root.tag) != "svg":
        raise ChartError("not a chart: the root is not <svg>")
    out = _copy(root, prefix)
    assert out is not None
    for size in ("width", "height"):  # the page sizes it; the viewBox keeps its shape
        out.attrib.pop(size, None)
    out.set("role", "img")
    out.set("aria-labelledby", f"{prefix}-title")
    out.set("class", "analysis-chart")
    out.set("stroke-linejoin", "round")  # matplotlib's own style sheet, as attributes
    out.set("stroke-linecap", "butt")
    label = ET.Element(f"{{{SVG}}}title", {"id": f"{prefix}-title"})
    label.text = title
    out.insert(0, label)
    ET.register_namespace("", SVG)
    return ET.tostring(out, encoding="unicode", short_empty_elements=True)
