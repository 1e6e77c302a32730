"""The one reader of the cases' header comments: a case's lesson (title,
sections, markers) and its variants, from cases/<family>/<case>.c."""
import functools
import glob
import os
import re

from .results import ROOT

SECTIONS = [("mistake", "The mistake"), ("sees", "What the program sees"), ("pytorch", "What a PyTorch user sees"),
            ("why", "Why"), ("fix", "The fix"), ("references", "References")]


class Case:
    def __init__(self, path, root=ROOT, source=None, mirror=None):
        """A case from its file; or, given source (and mirror: (relative path, text) or None), from texts that a
        dataset stored, without reading anything (path is then cases/<family>/<case>.c, relative)."""
        self.path = path
        self.source_path = os.path.relpath(path, root) if source is None else path
        self.family = os.path.basename(os.path.dirname(path))
        self.name = os.path.splitext(os.path.basename(path))[0]
        if source is not None:
            self.source = source
        else:
            with open(path, encoding="utf-8") as f:
                self.source = f.read()
        self.title, self.sections, self.markers = parse_lesson(self.source)
        # the cause it reproduces, in the vocabulary of data/causes.tsv ("atlas:cause KEY" in the header)
        self.cause = next((m.split()[1] for m in self.markers if m.startswith("atlas:cause") and len(m.split()) > 1), None)
        match = re.search(r"ATLAS_CASE\((\w+),\s*(\w+)\)", self.source)
        self.variant_functions = {"fixed": match.group(1), "broken": match.group(2)} if match else {}
        if source is not None:
            self.mirror_path, self.mirror_source = mirror or (None, None)
            return
        mirror = os.path.splitext(path)[0] + ".py"
        self.mirror_path = os.path.relpath(mirror, root) if os.path.exists(mirror) else None
        self.mirror_source = None
        if self.mirror_path:
            with open(mirror, encoding="utf-8") as f:
                self.mirror_source = f.read()

    @property
    def human_title(self):
        """The header's first line after the dash, as a sentence."""
        title = self.title.split("—", 1)[-1].strip() if "—" in self.title else self.title
        return sentence(title, self.source).rstrip(".") if title else self.name.replace("_", " ")

    def variant_lines(self):
        """{variant: (line number, text)} of the line that defines each variant (`static void NAME(void)`)."""
        starts = {variant: "static void %s(void)" % function for variant, function in self.variant_functions.items()}
        lines = {}
        for number, text in enumerate(self.source.splitlines(), 1):
            if text.startswith("static void "):
                for variant, start in starts.items():
                    if text.startswith(start):
                        lines[variant] = (number, text)
        return lines

    def variant_bodies(self):
        """{variant: [lines]}: each variant's function, from its definition to
        its closing brace."""
        lines = self.source.splitlines()
        bodies = {}
        for variant, (number, _) in self.variant_lines().items():
            depth, body = 0, []
            for text in lines[number - 1:number + 60]:
                body.append(text)
                depth += text.count("{") - text.count("}")
                if depth <= 0 and "{" in "".join(body):
                    break
            bodies[variant] = body
        return bodies


@functools.lru_cache(maxsize=4096)
def sentence(text, code=""):
    """Capitalise the first word, unless it is an identifier (cublasSgemm,
    transa = ..., malloc) that must keep its case."""
    match = re.match(r"([A-Za-z_]\w*)(\s*[=(\[]|\.\w)?", text)
    if not match or match.group(2) or not re.fullmatch(r"[a-z]+", match.group(1)):
        return text
    word = match.group(1)
    body = code.split("*/", 1)[-1]
    if re.search(r"\b%s\b" % re.escape(word), body) and len(word) > 3:
        return text
    return text[:1].upper() + text[1:]


def parse_lesson(source):
    """(title, {section: text}, [markers]) from the header comment."""
    match = re.match(r"\s*/\*(.*?)\*/", source, re.S)
    if not match:
        return "", {}, []
    lines = [re.sub(r"^\s*\*\s?", "", line).rstrip() for line in match.group(1).splitlines()]
    paragraphs, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    title = paragraphs.pop(0) if paragraphs else ""
    sections, markers, key = {}, [], None
    for paragraph in paragraphs:
        if paragraph.startswith("atlas:"):
            markers.append(paragraph)
            continue
        for name, prefix in SECTIONS:
            if paragraph.startswith(prefix):
                key = name
                sections[key] = paragraph
                break
        else:
            if key:
                sections[key] += "\n\n" + paragraph
    return title, sections, markers


def load_cases(root=ROOT):
    paths = sorted(glob.glob(os.path.join(root, "cases", "*", "*.c")) + glob.glob(os.path.join(root, "cases", "*", "*.cu")))
    return {case.name: case for case in (Case(p, root) for p in paths)}
