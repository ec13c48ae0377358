"""Writers for people: documents made from what the core says, by Jinja templates.

The recap (:mod:`referee.table.recap` words a log) is written out here as Markdown,
an HTML fragment and a page standing alone (:mod:`.recap`), for the command line and
the web alike: neither edge depends on the other, and the core writes no markup.
"""
