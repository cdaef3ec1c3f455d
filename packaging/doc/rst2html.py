#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""HTML of the rxe-cc documentation, one page per .rst, with plain docutils.

    python3 packaging/doc/rst2html.py SRCDIR OUTDIR

Writes OUTDIR/NAME.html for every SRCDIR/NAME.rst and OUTDIR/index.html
listing them by title, the user guide first. The pages are written for the kernel's Sphinx
build; of Sphinx's markup, the :doc: role becomes a link to the other page
(and :ref: plain text). Any docutils error fails the run, naming the file.
Run by debian/rules (package rxe-cc-tools, /usr/share/doc/rxe-cc-tools/html).
"""

import html
import os
import sys

try:
    import docutils.core
    import docutils.nodes
    import docutils.utils
    from docutils.parsers.rst import roles
except ImportError:
    sys.exit("rst2html.py: docutils not found (apt-get install python3-docutils)")


def doc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """:doc:`title <target>` or :doc:`target`: a link to target.html."""
    text = docutils.utils.unescape(text)
    title, target = text, text
    if text.endswith(">") and "<" in text:
        title, target = text[:-1].split("<", 1)
        title, target = title.strip(), target.strip()
    target = target.split("/")[-1]
    if target.endswith(".rst"):
        target = target[:-4]
    node = docutils.nodes.reference(rawtext, title, refuri=target + ".html", **(options or {}))
    return [node], []


def ref_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """:ref:`title <label>` or :ref:`label`: the title, as plain text."""
    text = docutils.utils.unescape(text)
    if text.endswith(">") and "<" in text:
        text = text[:-1].split("<", 1)[0].strip()
    return [docutils.nodes.Text(text)], []


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: rst2html.py SRCDIR OUTDIR")
    src, out = argv[1], argv[2]
    if not os.path.isdir(src):
        sys.exit(f"rst2html.py: {src} is not a directory")
    pages = sorted(f[:-4] for f in os.listdir(src) if f.endswith(".rst"))
    if not pages:
        sys.exit(f"rst2html.py: no .rst files in {src}")
    os.makedirs(out, exist_ok=True)
    roles.register_local_role("doc", doc_role)
    roles.register_local_role("ref", ref_role)
    settings = {
        "halt_level": 3,  # an error stops the run
        "report_level": 2,  # warnings are printed
        "embed_stylesheet": True,
        "input_encoding": "utf-8",
        "output_encoding": "utf-8",
        "datestamp": False,
        "generator": False,
        "source_link": False,
        "_disable_config": True,
    }
    titles = {}
    for name in pages:
        path = os.path.join(src, name + ".rst")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            parts = docutils.core.publish_parts(
                source=text, source_path=path, writer_name="html5", settings_overrides=settings
            )
        except docutils.utils.SystemMessage as e:
            sys.exit(f"rst2html.py: {path}: {e}")
        with open(os.path.join(out, name + ".html"), "w", encoding="utf-8") as f:
            f.write(parts["whole"])
        titles[name] = html.unescape(parts["title"]) or name
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>rxe-cc documentation</title>\n</head>\n<body>\n"
            "<h1>rxe-cc documentation</h1>\n<ul>\n"
        )
        # the user guide first, the others by file name
        for name in sorted(pages, key=lambda n: (n != "user-guide", n)):
            f.write(
                f'<li><a href="{name}.html">{html.escape(titles[name])}</a>'
                f" ({name}.rst)</li>\n"
            )
        f.write("</ul>\n</body>\n</html>\n")
    print(f"rst2html.py: {len(pages)} pages and index.html in {out}")


if __name__ == "__main__":
    main(sys.argv)
