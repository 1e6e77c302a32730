"""explain: from an error as a user pastes it to the cases that reproduce it.

    cuda-atlas explain "RuntimeError: CUDA error: ..."
    some_program 2>&1 | cuda-atlas explain -
    cuda-atlas explain --cuda 12.4 --json "code=700(cudaErrorIllegalAddress)"

Reading the text is explain_status's work (statuses by name, text or
number, the wrapper that printed them, API calls, versions, context
words). Here the corpus answers: every case's evidence — what its broken
variant returned in each recorded environment (results files), what the
rules expect of it (expected/*.rules, so a case not yet run is found too),
what PyTorch raised in its mirror, the messages its lesson quotes, and its
lesson's words — is weighed against what the text says. A case is
presented as the cause only when its evidence singles it out; a status
many cases return, with nothing to tell them apart, is answered as
"possible"; documented causes no GPU here reproduces come from
data/real_world/documented_causes.tsv and are never shown as cases.
Cases the message cannot separate (a tie) are ordered by how often real
reports had each as their established cause (data/real_world/reports.tsv,
its `cases` column), and the answer says so; that never moves a case the
evidence sets apart.

Exit status: 0 when it answers (the cause, possible causes, or a documented
cause), 1 when nothing matches (what the status means is still printed), 2
on bad usage.
"""
import argparse
import collections
import difflib
import functools
import json
import math
import os
import re
import signal
import sys


from .results import PYTORCH_RULE, ROOT, SUCCESS, default_results_paths, expand, load_results
from .lessons import load_cases
from .libraries import call_library
from . import statuses as explain_status
from .statuses import Vocabulary, recognise
from .dataset import open_dataset, read_tsv
from . import rules as rules_reader
from .version_numbers import version_numbers

ON_ENTRY = re.compile(r"On entry to\s+(\S+)\s+parameter number\s+(\d+)", re.I)
KINDS = [("launch", r"launch|kernelnode|<<<"), ("alloc", r"malloc|memalloc|mempool|alloc\b"), ("free", r"free"),
         ("copy", r"memcpy|copy|memset"), ("sync", r"synchroni[sz]e|wait"), ("query", r"query"),
         ("create", r"create|init\b|cuinit|plan\w*d\b|plan\b"), ("destroy", r"destroy"), ("gemm", r"gemm|matmul"),
         ("device", r"setdevice|getdevice|devicecount|device_count"), ("capture", r"capture|graph"), ("peer", r"peer"),
         ("event", r"event"), ("comm", r"nccl|allreduce|comm\w*init")]
STOP = set("""the and for with was were that this from are not but you your its has have had can cannot could into when
then than been being which what where while after before about also only just more most some such very will would
should may might must there their they them these those our out all any each one two use used using via per
error errors failed failure fail line file call calls called calling returned return returns runtime runtimeerror
cuda cudart gpu gpus nvidia program process see case cases variant broken fixed step pytorch torch user users
mistake sees what why fix references lesson atlas here same new get got true false none null value code bytes
info warning warn who how why let set run off put end did does done now yet too own way day big old try
during within because since upon text""".split())
CAUSE, POSSIBLE, RELATED = "cause", "possible", "related"
# statuses that say only that some argument of the call was wrong, some configuration of it is not supported, or
# something inside the library failed (NCCL's unhandled CUDA or system error: some call beneath it failed, its WARN
# lines say which): a case returning one is an example of it, and the cause only at the call the text names
ARGUMENT_STATUS = re.compile(r"(?:INVALID_VALUE|BAD_PARAM|InvalidValue|NOT_SUPPORTED|NotSupported|INTERNAL_ERROR|"
                             r"ncclUnhandledCudaError|ncclSystemError|ncclInternalError)\b")
# statuses that say only that a check in a kernel failed: which check, and so which mistake, only the assert's own
# line says (a catalogue entry of the framework whose check it is)
ASSERT_STATUS = {"cudaErrorAssert", "CUDA_ERROR_ASSERT"}
# kernels a compiler generated for a framework (TorchInductor's triton_poi_/triton_red_/triton_per_ kernels): a fault
# in one is in code the user did not write
GENERATED_KERNEL = re.compile(r"\binductor\b|\bgenerated kernel|\btriton_(?:poi|red|per)_", re.I)
# Statuses of a kernel that faulted (PyTorch's list of asynchronously reported kernel errors; a recognised status's
# same_as holds the driver API's names too), and what runs kernels of its own, so that such a fault it reports is in
# one of them.
KERNEL_FAULTS = set(PYTORCH_RULE["statuses"])
RUNS_ITS_OWN_KERNELS = {"TensorRT"}
# words that say the failing call was a kernel launch (weighed as that kind of call, not again as words)
LAUNCH_WORDS = r"\bkernel launch|\blaunch(?:ing)? (?:the |a )?kernel|launch failed"
# signs in a message that more than one GPU is involved
MULTI_GPU = re.compile(r"peer|p2p|nvlink|nccl|\branks?\b|local_rank|world_size|cuda:[1-9]|\b(?:device|gpu|ordinal)[ =:#]*[1-9]|"
                       r"\bdevices\b|\bgpus\b|multi-?gpu|tensor.parallel|another device|other device|two devices", re.I)


# ---- the corpus --------------------------------------------------------------

class Observation:
    """A status a case returned (a run) or is expected to return (a rule)."""
    __slots__ = ("status", "step", "function", "variant", "source", "lesson", "first", "environment", "where", "conditions",
                 "also", "extra")

    def __init__(self, status, step, function, variant, source, lesson, first, environment, where, conditions=()):
        self.status, self.step, self.function, self.variant = status, step, function, variant
        self.source, self.lesson, self.first = source, lesson, first
        self.environment, self.where, self.conditions = environment, where, conditions
        self.also, self.extra = (), 0      # after Corpus.compact: other places of the same observation

    def places(self):
        return (self.where,) + tuple(self.also)


# What of an environment explain weighs: observations that differ only in anything else (another machine, another
# file of the same environment) are one observation seen in several places.
ENVIRONMENT_SIGNATURE = ("driver", "cuda", "cudart", "cudart_header", "cublas", "gpu", "mode", "devices")
PLACES_KEPT = 8


class Corpus:
    """Everything explain weighs, read once: cases, results, rules, mirrors, documented causes, real-world counts."""

    def __init__(self, root=ROOT, results_paths=None, status_table=None):
        self.root = root
        self.vocabulary = Vocabulary(root, status_table)
        self.cases = load_cases(root)
        self.results, self.problems = load_results(results_paths if results_paths is not None else default_results_paths(root))
        self.environments = {r.path: r for r in self.results}
        self.observations = collections.defaultdict(list)     # case -> [Observation]
        self.messages = collections.defaultdict(list)         # case -> [(text, where, kind)]
        # what the broken variant returned where it really ran on a GPU: a lesson's quote of a status none of these
        # runs returned is a report the case documents, not one it reproduces
        self.gpu_broken_runs = collections.Counter()          # case -> broken runs on a GPU
        self.gpu_broken_statuses = collections.defaultdict(set)
        self.family = {name: case.family for name, case in self.cases.items()}
        self.step_functions = {name: _step_functions(case.source) for name, case in self.cases.items()}
        self.uses_cublas = {name for name, case in self.cases.items() if "cublas" in case.source}
        for results in self.results:
            if results.kind == "pytorch":
                self._read_mirrors(results)
            else:
                self._read_runs(results)
        self.rules = list(_read_rules(root))
        # what every case returns on a machine without a driver (expected/environment.rules): a status the
        # environment gives any program, which singles no mistake out
        self.environment_statuses = {s for rule in self.rules if rule["case"] == "*" and rule["variant"] == "*"
                                     and "driver=none" in rule["conditions"] for s in rule["expected"].split("|")}
        self._read_rule_expectations()
        # Without a driver every call fails: such an observation shows the
        # mistake only for a case whose mistake no GPU environment shows.
        for case, observations in self.observations.items():
            if any(o.lesson and not _no_driver(o) for o in observations):
                for o in observations:
                    if _no_driver(o):
                        o.lesson = False
        for name, case in self.cases.items():
            for quote in _lesson_quotes(case.source):
                self.messages[name].append((quote, ("the case's lesson (%s)" % case.source_path, None), "lesson"))
        self.documented = _read_documented(root)
        # the status a mistake gave under older toolkits or other builds (data/status_history/mistakes.tsv)
        self.mistake_history = _read_mistake_history(root)
        # the cause each case reproduces (its header's atlas:cause) and one sentence per cause (data/causes.tsv):
        # explain's answers are causes, each with the cases that reproduce it
        self.cause_sentences = _read_causes(root)
        self.cause_of = {name: case.cause or name for name, case in self.cases.items()}
        # what the frameworks print, read in their own sources (data/frameworks/messages.tsv)
        self.frameworks = _read_frameworks(root)
        # cuBLAS's "parameter number N" of each routine as it prints it (data/cublas_parameters/parameters.tsv)
        self.cublas_parameters = _read_cublas_parameters(root)
        for case, messages in list(self.messages.items()):
            merged = collections.OrderedDict()
            for message, where, kind in messages:
                merged.setdefault((message, kind), []).append(where)
            self.messages[case] = [(message, places, kind) for (message, kind), places in merged.items()]
        self.words, self.idf = self._case_words()
        # cases whose lesson says there is no mistake in what they do: they show where an earlier fault surfaces
        self.no_mistake = {name for name, case in self.cases.items()
                           if re.match(r"The mistake:\s*none\b", case.sections.get("mistake", ""), re.I)}
        # cases whose mistake needs two GPUs (they skip with "needs 2 GPUs" on one)
        self.needs_two_gpus = {name for name, case in self.cases.items()
                               if "atlas_need_two_gpus" in case.source or "needs 2 GPUs" in case.source}
        # how many other lessons name the case (as the plain form of their mistake, or for comparison): where
        # nothing else separates two cases, the one the corpus itself points to comes first
        self.cited_by = collections.Counter()
        for name, case in self.cases.items():
            header = re.match(r"\s*/\*.*?\*/", case.source, re.S)
            for word in set(re.findall(r"\w+", header.group(0) if header else "")) - {name}:
                if word in self.cases:
                    self.cited_by[word] += 1
        # the real reports: how often each case and each cause was the established one, and with which statuses
        self.real_world = RealWorld.read(os.path.join(root, "data", "real_world", "reports.tsv"), self)

    def compact(self):
        """One observation per distinct thing seen (status, step, call, variant, kind, environment signature), with the
        places it was seen: the corpus stays the same size however many copies of an environment are added (more
        machines, more files), so explain's time does not grow with them."""
        for case, observations in self.observations.items():
            merged = collections.OrderedDict()
            for o in observations:
                env = o.environment or {}
                key = (o.status, o.step, o.function, o.variant, o.source, o.lesson, o.first, tuple(o.conditions or ()),
                       tuple(env.get(k) for k in ENVIRONMENT_SIGNATURE))
                kept = merged.get(key)
                if kept is None:
                    merged[key] = o
                elif o.where not in kept.places():
                    if len(kept.also) < PLACES_KEPT:
                        kept.also = tuple(kept.also) + (o.where,)
                    else:
                        kept.extra += 1
            self.observations[case] = list(merged.values())
        # what explain would otherwise work out afresh in every process: each message's statuses, whether PyTorch
        # prints it, how many statuses each case's mistake returns
        for case, messages in self.messages.items():
            for message, _, _ in messages:
                self.message_statuses(message)
                self.message_rest(message)
                self.is_pytorch_message(case, message)
        for case in self.case_names():
            self.statuses_of_mistake(case)
        for case in self.cases:
            self.lesson_text(case)
        # what explain reads of a case after this: its sections and title (the sources were read above)
        for name, case in list(self.cases.items()):
            light = object.__new__(type(case))
            light.__dict__.update(case.__dict__)
            light.source, light.mirror_source = "", None
            self.cases[name] = light
        return self

    def __getstate__(self):
        """What the cache keeps: everything explain weighs, and of each results file only what names its environment
        (its runs are read into observations and messages already)."""
        state = dict(self.__dict__)
        light = {}

        def keep(results):
            if results is None:
                return None
            if id(results) not in light:
                copy = object.__new__(type(results))
                copy.__dict__.update(results.__dict__)
                copy.data, copy.runs, copy.overlay, copy.overlay_from = None, [], {}, None
                copy.invalid, copy.partial_invalid = {}, {}
                light[id(results)] = copy
            return light[id(results)]
        state["results"] = [keep(r) for r in self.results]
        state["environments"] = {path: keep(r) for path, r in self.environments.items()}
        if "_cited" in state:
            state["_cited"] = {path: keep(r) for path, r in self._cited.items()}
        # observations as plain tuples: thousands of objects unpickle slowly, tuples quickly
        state["observations"] = {case: [tuple(getattr(o, slot) for slot in Observation.__slots__) for o in observations]
                                 for case, observations in self.observations.items()}
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.observations = collections.defaultdict(list)
        new = object.__new__
        for case, rows in state["observations"].items():
            kept = self.observations[case]
            for row in rows:
                o = new(Observation)
                (o.status, o.step, o.function, o.variant, o.source, o.lesson, o.first, o.environment, o.where,
                 o.conditions, o.also, o.extra) = row
                kept.append(o)

    def _read_runs(self, results):
        label = results.label
        by_case = collections.defaultdict(dict)
        for run in results.runs:
            by_case[run["case"]][run["variant"]] = run
        for case, variants in by_case.items():
            self.family.setdefault(case, next(iter(variants.values())).get("family", ""))
            fixed = variants.get("fixed") or {}
            # a status the fixed variant returned too (no driver: every call) is not the mistake's
            fixed_seen = {s.get("name") for s in fixed.get("steps", []) if not s.get("success") and s.get("step") != "probe"}
            if fixed.get("end", {}).get("kind") == "signal":
                fixed_seen.add(fixed["end"].get("outcome"))
            broken = variants.get("broken") or {}
            if results.environment.get("driver", "none") != "none" and broken.get("verdict") != "skip" and broken.get("steps"):
                self.gpu_broken_runs[case] += 1
                self.gpu_broken_statuses[case] |= {s.get("name") for s in broken.get("steps", []) if not s.get("success")}
                if (broken.get("end") or {}).get("kind") == "signal":
                    self.gpu_broken_statuses[case].add(broken["end"].get("outcome"))
            for variant, run in variants.items():
                first = run.get("first_error") or {}
                for record in run.get("steps", []):
                    # every call the case really made, whatever it returned (the source's own macros may hide them)
                    called = _called(record.get("call"))
                    if re.match(r"(?:cu|nccl|nvrtc)[A-Z]\w*$", called) and record.get("step"):
                        known = self.step_functions.setdefault(case, {}).setdefault(record["step"], [])
                        if called not in known:
                            known.append(called)
                    name = record.get("name")
                    if record.get("success") or name in SUCCESS or record.get("step") == "probe" or not name:
                        continue
                    step = record.get("step")
                    self.observations[case].append(Observation(
                        name, step, _called(record.get("call")), variant, "run",
                        variant == "broken" and name not in fixed_seen,
                        first.get("step") == step and first.get("name") == name, results.environment, label))
                end = run.get("end") or {}
                if end.get("kind") == "signal":
                    outcome = end.get("outcome")
                    self.observations[case].append(Observation(
                        outcome, "end", "", variant, "run", variant == "broken" and outcome not in fixed_seen,
                        not first, results.environment, label))
                if variant == "broken":
                    for line in run.get("library_messages") or []:
                        self.messages[case].append((line, (label, results.environment), "library"))
                    for line in (run.get("stderr_tail") or "").splitlines():
                        if len(line.strip()) >= 15 and not line.startswith("["):
                            self.messages[case].append((line.strip(), (label, results.environment), "stderr"))

    def _read_mirrors(self, results):
        for run in results.runs:
            if run.get("variant") != "broken" or not run.get("message"):
                continue
            first = run["message"].strip().splitlines()[0]
            exception = (run.get("exception") or "").split(".")[-1]
            self.messages[run["case"]].append(("%s: %s" % (exception, first) if exception else first,
                                               (results.label, results.environment), "pytorch"))

    def _read_rule_expectations(self):
        # a rule does not say which failure came first; the case's source does: the earliest of its broken
        # variant's failing steps (in the order its ATLAS_* records appear), on a machine with a driver
        earliest = {}
        for rule in self.rules:
            if rule["case"] == "*" or rule["variant"] == "fixed" or "driver=none" in rule["conditions"]:
                continue
            if all(s in SUCCESS or s in ("not-reached", "result_wrong") or s.startswith(("exit:", "timeout"))
                   for s in rule["expected"].split("|")):
                continue
            order = list(self.step_functions.get(rule["case"], {}))
            step = self.source_step(rule["case"], rule["step"])
            position = order.index(step) if step in order else len(order)
            earliest[rule["case"]] = min(earliest.get(rule["case"], position), position)
        # a status the fixed variant is expected to return too, under the same conditions, is not the mistake's
        # (as for runs: the fix moves where it is reported, it does not remove it)
        fixed_expected = collections.defaultdict(set)
        for rule in self.rules:
            if rule["variant"] == "fixed":
                fixed_expected[(rule["case"], tuple(rule["conditions"]))].update(rule["expected"].split("|"))
        for rule in self.rules:
            case, variant, step, expected = rule["case"], rule["variant"], rule["step"], rule["expected"]
            if case == "*" or variant == "fixed":
                continue
            cite = re.search(r"run:(\S+\.json(?:\.gz)?)", rule["cite"])
            source = self.cited_results(cite.group(1)) if cite else None
            environment = source.environment if source else None
            for status in expected.split("|"):
                if status in SUCCESS or status in ("not-reached", "result_wrong") or status.startswith(("exit:", "timeout")):
                    continue
                named = self.source_step(case, step)
                functions = self.step_functions.get(case, {}).get(named, [""])
                order = list(self.step_functions.get(case, {}))
                first = "driver=none" not in rule["conditions"] and \
                    (order.index(named) if named in order else len(order)) == earliest.get(case)
                self.observations[case].append(Observation(
                    status, step, functions[0], variant, "rule",
                    variant == "broken" and status not in fixed_expected[(case, tuple(rule["conditions"]))], first, environment,
                    "%s:%d%s%s" % (rule["file"], rule["line"], " (when %s)" % " ".join(rule["conditions"]) if rule["conditions"] else "",
                                   ", observed on %s" % source.label if source else ""),
                    tuple(rule["conditions"])))

    def source_step(self, case, step):
        """The step as the case's source names it: a recorded step may be composed at run time from a mode and the
        name in the source (capture_step("global", "sync") records global_sync)."""
        steps = self.step_functions.get(case, {})
        if step in steps:
            return step
        return max((k for k in steps if step.endswith("_" + k)), key=len, default=step)

    def cited_results(self, relative):
        """The results file a rule cites (loaded once, only for its environment's label), or None."""
        if not hasattr(self, "_cited"):
            self._cited = {os.path.relpath(r.path, self.root): r for r in self.results}
        if relative not in self._cited:
            path = os.path.join(self.root, relative)
            loaded, _ = load_results([path]) if os.path.isfile(path) else ([], [])
            self._cited[relative] = loaded[0] if loaded else None
        return self._cited[relative]

    def _case_words(self):
        """({case: words of its name and title}, {case: words of its lesson}, idf)."""
        names, lessons = {}, {}
        for name in set(self.cases) | set(self.observations):
            case = self.cases.get(name)
            names[name] = set(_tokens(name.replace("_", " ") + " " + (case.title if case else "")))
            lesson = ""
            if case:
                lesson = " ".join(v for k, v in case.sections.items() if k != "references")
            lessons[name] = set(_tokens(lesson + " " + self.family.get(name, "").replace("_", " "))) | names[name]
        count = max(1, len(lessons))
        frequency = collections.Counter(w for words in lessons.values() for w in words)
        idf = {w: math.log((1 + count) / (1 + df)) for w, df in frequency.items()}
        return (names, lessons), idf

    def not_reproduced(self, case, statuses):
        """The case ran broken on a GPU here and never returned any of `statuses` (what its lesson quotes from a
        report is then that report's, documented, not reproduced)."""
        return bool(statuses) and self.gpu_broken_runs[case] > 0 and not statuses & self.gpu_broken_statuses[case]

    def statuses_of_mistake(self, case):
        """How many statuses the case's mistake returns in one environment, as the program sees them. What a tool in
        between reports instead (compute-sanitizer turns an illegal address into a launch failure) is the same
        failure, not another; so is the status another runtime gives the same step (CUDA 13.0 says
        cudaErrorInvalidValue where 12.x said cudaErrorInvalidConfiguration)."""
        if not hasattr(self, "_statuses_of_mistake"):
            self._statuses_of_mistake = {}
        if case not in self._statuses_of_mistake:
            groups, everywhere = collections.defaultdict(set), set()
            observations = [o for o in self.observations.get(case, []) if o.lesson and o.status not in ("result_wrong", "not-reached")]
            observations = [o for o in observations if not _under_tool(o)] or observations
            # where it was run, the runs say it; the rules stand in where it was not
            observations = [o for o in observations if o.source == "run"] or observations
            for o in observations:
                if o.source == "run":
                    groups[o.where].add(o.status)
                elif o.conditions:
                    groups[o.conditions].add(o.status)
                else:
                    everywhere.add(o.status)
            self._statuses_of_mistake[case] = max([len(g | everywhere) for g in groups.values()] or [len(everywhere)])
        return self._statuses_of_mistake[case]

    def message_statuses(self, message):
        """recognise(message), once per message."""
        if not hasattr(self, "_message_statuses"):
            self._message_statuses = {}
        if message not in self._message_statuses:
            self._message_statuses[message] = recognise(message, self.vocabulary)
        return self._message_statuses[message]

    def lesson_text(self, case):
        """(the lesson's sections a user reads — what they see, what PyTorch says, why, the mistake — joined; the same
        in lower case; the quotes of four words or more in them, in lower case), once per case."""
        if not hasattr(self, "_lesson_text"):
            self._lesson_text = {}
        if case not in self._lesson_text:
            sections = self.cases[case].sections
            lesson = " ".join(sections.get(k, "") for k in ("sees", "pytorch", "why", "mistake"))
            quotes = [q.lower() for k in ("sees", "pytorch", "why", "mistake")
                      for q in re.findall(r'"([^"]{12,200})"', sections.get(k, "")) if len(q.split()) >= 4]
            self._lesson_text[case] = (lesson, lesson.lower(), quotes)
        return self._lesson_text[case]

    def message_rest(self, message):
        """What a recorded message says besides its statuses and calls, normalised (once per message)."""
        if not hasattr(self, "_message_rest"):
            self._message_rest = {}
        if message not in self._message_rest:
            self._message_rest[message] = _normalize(context_text(message, self.message_statuses(message),
                                                                  explain_status.calls(message), self.vocabulary))
        return self._message_rest[message]

    def message_errors(self, message):
        return {n for s in self.message_statuses(message) if s.role == "error" for n in s.same_as}

    def is_pytorch_message(self, case, message):
        """A message PyTorch prints: in PyTorch's form, or quoted under the lesson's "What a PyTorch user sees"
        (once per case and message)."""
        if not hasattr(self, "_pytorch_messages"):
            self._pytorch_messages = {}
        if (case, message) not in self._pytorch_messages:
            said = re.sub(r"\s+", " ", self.cases[case].sections.get("pytorch", "")) if case in self.cases else ""
            self._pytorch_messages[case, message] = "PyTorch" in explain_status.wrappers(message) or \
                re.sub(r"\s+", " ", message)[:40] in said
        return self._pytorch_messages[case, message]

    def case_names(self):
        return sorted(set(self.cases) | set(self.observations) | set(self.messages))


MODE_WORDS = {"launch_blocking": r"CUDA_LAUNCH_BLOCKING\s*=\s*1", "eager_loading": r"CUDA_MODULE_LOADING\s*=\s*EAGER",
              "workspace_0": r"CUBLAS_WORKSPACE_CONFIG", "sanitizer": r"compute-sanitizer|========= "}


def _text_shows_mode(text, mode):
    pattern = MODE_WORDS.get(mode)
    return bool(pattern and re.search(pattern, text))


def _under_tool(observation):
    if observation.source == "rule":
        return "mode=sanitizer" in observation.conditions
    return (observation.environment or {}).get("mode") == "sanitizer"


def _no_driver(observation):
    if observation.source == "rule":
        return "driver=none" in observation.conditions
    return (observation.environment or {}).get("driver", "none") == "none"


def _tokens(text):
    text = re.sub(r"\b(sm|compute)_\d+a?\b", r"\1_arch", text.lower().replace("-", " "))
    return [w for w in re.findall(r"[a-z][a-z0-9_]{2,}", text) if w not in STOP]


BOILERPLATE = re.compile(r"\bat 0x[0-9a-fA-F]+ in [^\n]*|\bin function `?[\w:~<>]+`?|^\s*File \"[^\n]*|^\s*#\d+\s+0x[^\n]*|"      # frames of a backtrace: the user's code
                         r"\b(?:torch\.)?(?:RuntimeError|AcceleratorError)\s*:|\bCUDA (?:runtime )?error\s*:|"      # the wrapper's own prefix
                         r"code\s*=\s*-?\d+\s*\(\w*\)|CUDA kernel errors might be asynchronously reported[^\n]*|For debugging consider passing[^\n]*|"
                         r"Compile with `TORCH_USE_CUDA_DSA`[^\n]*|Traceback \(most recent call last\):|"
                         r"\S*[/\\]\S*|\S+\.(?:cu|cuh|cpp|cc|c|h|hpp|py)(?::\d+)?\b|0x[0-9a-fA-F]+", re.I | re.M)


def context_text(text, statuses, calls, vocabulary):
    """The text less what is already weighed: status names and texts, calls, paths, wrapper boilerplate."""
    text = BOILERPLATE.sub(" ", text)
    for status in statuses:
        for name in status.same_as:
            text = text.replace(name, " ")
            message = vocabulary.text.get(name, "")
            if len(message) >= 6:
                text = re.sub(re.escape(message), " ", text, flags=re.I)
    for call in sorted(calls, key=len, reverse=True):
        text = text.replace(call, " ")
    return text


def _called(call):
    """The function a recorded call names: "cu.cuLinkComplete(link, ...)" calls cuLinkComplete (a pointer to the driver's
    function, named after it), "cublasSgemm(handle, ...)" calls cublasSgemm."""
    head = (call or "").split("(")[0].strip()
    return re.split(r"\.|->", head)[-1].strip()


def _step_functions(source):
    """{step: [API functions]} from the case's ATLAS_*("step", call(...)) records (the step may be an expression
    holding the name, e.g. capture_step(mode, "malloc"))."""
    functions = collections.defaultdict(list)
    for match in re.finditer(r"\bATLAS_[A-Z_]+\(", source):
        depth, i, comma = 1, match.end(), None
        while i < len(source) and depth and i - match.end() < 2000:
            ch = source[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == "," and depth == 1 and comma is None:
                comma = i
            i += 1
        if comma is None:
            continue
        first, call = source[match.end():comma], source[comma + 1:i - 1]
        step = re.search(r'"(\w+)"', first)
        function = re.search(r"\b((?:cu|nccl)\w*)\s*\(", call)
        if step and function and function.group(1) not in functions[step.group(1)]:
            functions[step.group(1)].append(function.group(1))
    return functions


def _lesson_quotes(source):
    """The messages a lesson quotes: indented lines of its header comment (a quote wrapped over
    several indented lines is one message)."""
    header = re.match(r"\s*/\*(.*?)\*/", source, re.S)
    if not header:
        return []
    quotes, current = [], []
    for line in header.group(1).splitlines() + [""]:
        match = re.match(r"^\s*\*\s{3,}(\S.*)$", line)
        if match:
            current.append(match.group(1).strip())
            continue
        if current and len(" ".join(current)) >= 13:
            quotes.append(" ".join(current))
        current = []
    return quotes


def _read_rules(root):
    """The rules as explain weighs them, read by the one rules reader (cuda_error_atlas/rules.py): conditions as their
    tokens (driver=none, cudart=11.8..12.9)."""
    parsed, _ = rules_reader.read_dir(os.path.join(root, "expected"), root)
    for r in parsed:
        yield {"file": r.file, "line": r.line, "case": r.case, "variant": r.variant, "step": r.step,
               "expected": r.expected, "conditions": [repr(c) for c in r.conditions], "cite": r.cite}


class RealWorld:
    """How often each case was the established cause of a real report (data/real_world/reports.tsv: the rows
    whose `cases` column names it), and how often each cause (its `cause_key`), out of how many reports. It orders
    only what the message cannot separate: tied cases, and documented causes the text matches equally."""

    def __init__(self, rows=()):
        # (id, cases named, cause key, the statuses its text names); a shorter row lacks the last ones
        self.rows = [(row[0], tuple(row[1]), row[2] if len(row) > 2 else "", frozenset(row[3]) if len(row) > 3 else frozenset())
                     for row in rows]
        self.total = len(self.rows)
        self.counts = collections.Counter(case for _, cases, _, _ in self.rows for case in set(cases))
        self.causes = collections.Counter(cause for _, _, cause, _ in self.rows if cause)
        self.causes_by_status = collections.defaultdict(collections.Counter)     # status name -> {cause key: reports}
        for _, _, cause, statuses in self.rows:
            for status in statuses:
                if cause:
                    self.causes_by_status[status][cause] += 1

    def __getitem__(self, case):
        return self.counts.get(case, 0)

    def cause(self, key):
        """How many reports had this cause."""
        return self.causes.get(key, 0)

    def cause_with(self, key, statuses):
        """How many reports that named one of these statuses had this cause."""
        return max((self.causes_by_status[s][key] for s in statuses if s in self.causes_by_status), default=0)

    def without(self, row_ids):
        """The counts of the other rows (a row of a benchmark must not vote for its own cause)."""
        row_ids = set(row_ids)
        return RealWorld(r for r in self.rows if r[0] not in row_ids)

    def only(self, row_ids):
        row_ids = set(row_ids)
        return RealWorld(r for r in self.rows if r[0] in row_ids)

    @classmethod
    def read(cls, path, corpus=None):
        """From the real-world set; none (every count 0) where the tree has none. Rows are id, ..., cases, ...:
        the columns are found by the header line. corpus: to read the statuses each row's error text names."""
        header, table = read_tsv(path)
        if "id" not in header or "cases" not in header:
            return cls()
        rows = []
        for _, row in table:
            cases = row["cases"].split()
            rows.append((row["id"], [] if cases in ([], ["none"]) else cases, row.get("cause_key", ""),
                         report_statuses(report_text(row.get("error_text", "")), corpus) if corpus else ()))
        return cls(rows)


def _read_frameworks(root):
    """[{id, framework, pattern (compiled), wraps_status, cause_key, meaning, source, ...}]; a pattern that does not
    compile is left out and said so (a catalogue entry that can never match is a hole, not a silence)."""
    path = os.path.join(root, "data", "frameworks", "messages.tsv")
    entries = []
    for number, row in read_tsv(path)[1]:
        # an unbounded .* runs to the end of a megabyte line and back for every start: bounded, it stays linear
        row["bounded"] = re.sub(r"\.\*(\??)", r".{0,400}\1", row.get("pattern") or "(?!)")
        try:
            re.compile(row["bounded"])
        except re.error as error:
            print("explain: %s:%d: pattern does not compile (%s); left out" % (path, number, error), file=sys.stderr)
            continue
        row["literal"] = required_literal(row["bounded"])
        entries.append(row)
    return entries


def required_literal(pattern):
    """The text every match of the pattern starts with: its literal characters up to the first that is not one (a
    class, a group, a quantified character); '' where it has an alternative outside a group."""
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            return ""
        i += 1
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            following = pattern[i + 1:i + 2]
            if not following or following.isalnum():
                break                                      # \d, \w, \b, \n: a class or an assertion
            literal, step = following, 2
        elif ch in ".^$*+?{}[]()|":
            break
        else:
            literal, step = ch, 1
        after = pattern[i + step:i + step + 1]
        if after in ("?", "*", "{"):
            break                                          # optional, or repeated a number of times
        out.append(literal)
        if after == "+":
            break
        i += step
    return "".join(out)


def framework_regex(entry):
    return re.compile(entry["bounded"])


def framework_hits(text, corpus):
    """The catalogue entries whose message the text holds, the most specific (longest pattern) first. A pattern is
    compiled only where the text holds the literal text it starts with."""
    hits = [e for e in getattr(corpus, "frameworks", []) if e["literal"] in text and framework_regex(e).search(text)]
    return sorted(hits, key=lambda e: -len(e.get("pattern", "")))


def _read_cublas_parameters(root):
    """{(printed routine name, number): [(function, parameter)]}."""
    found = collections.defaultdict(list)
    for _, row in read_tsv(os.path.join(root, "data", "cublas_parameters", "parameters.tsv"))[1]:
        if row["number"].isdigit():
            found[(row["printed_name"].upper(), int(row["number"]))].append((row["function"], row["parameter"]))
    return dict(found)


def decode_parameter(entry, corpus):
    """(routine, number, [(function, parameter)]) for cuBLAS's "On entry to X parameter number N" line, or None."""
    if not entry:
        return None
    routine, number = entry.group(1).upper(), int(entry.group(2))
    found = getattr(corpus, "cublas_parameters", {}).get((routine, number), [])
    return (routine, number, found) if found else None


def _read_causes(root):
    """{key: sentence} from data/causes.tsv; empty where the tree has none."""
    return {row["key"]: row["sentence"] for _, row in read_tsv(os.path.join(root, "data", "causes.tsv"))[1]}


class CauseAnswer:
    """One answer: a cause, the cases that reproduce it (the best first), and how sure explain is of it (its best
    case's confidence)."""

    def __init__(self, key, sentence):
        self.key, self.sentence = key, sentence
        self.cases = []

    @property
    def best(self):
        return self.cases[0]

    @property
    def confidence(self):
        return self.best.confidence

    @property
    def score(self):
        return self.best.score

    def names(self):
        return [c.case for c in self.cases]


def group_by_cause(candidates, corpus):
    """The ranked cases as ranked causes: a cause stands where its best case stands, and lists every ranked case that
    reproduces it; so the first three answers are three different explanations."""
    answers, by_key = [], {}
    for c in candidates:
        key = getattr(corpus, "cause_of", {}).get(c.case) or c.case
        if key not in by_key:
            by_key[key] = CauseAnswer(key, getattr(corpus, "cause_sentences", {}).get(key) or _title(corpus, c.case))
            answers.append(by_key[key])
        by_key[key].cases.append(c)
    return answers


def _read_documented(root):
    rows = []
    for number, row in read_tsv(os.path.join(root, "data", "real_world", "documented_causes.tsv"))[1]:
        row["line"] = number
        row["patterns"] = [p.strip() for p in row.get("status_or_text_patterns", "").split("|") if p.strip()]
        rows.append(row)
    return rows


def _read_mistake_history(root):
    """[{status, number, text, cause_key, seen_with, source, note}] of data/status_history/mistakes.tsv: the status a
    mistake gave under older toolkits or other builds, where its case returns another here."""
    return [row for _, row in read_tsv(os.path.join(root, "data", "status_history", "mistakes.tsv"))[1]]


# ---- what the user's environment is ----------------------------------------------

def environment_matches(environment, wanted):
    """None when nothing is wanted or the environment is unknown; True/False otherwise."""
    if not wanted or environment is None:
        return None
    verdicts = []
    if wanted.get("cudart"):
        have = environment.get("cudart") if environment.get("cudart", "none") != "none" else environment.get("cudart_header")
        want = version_numbers(wanted["cudart"])
        verdicts.append(bool(have) and version_numbers(have)[:len(want)] == want)
    if wanted.get("driver"):
        want = version_numbers(wanted["driver"])
        have = environment.get("driver", "none")
        verdicts.append(have != "none" and version_numbers(have)[:len(want)] == want)
    if wanted.get("gpu"):
        verdicts.append(wanted["gpu"].lower().replace("nvidia", "").strip() in (environment.get("gpu") or "").lower())
    return all(verdicts) if verdicts else None


def conditions_hold(conditions, wanted):
    """Do a rule's conditions hold for the user's versions? Unknown fields hold. The conditions are read with the
    rules' own grammar (rules.py); a version the user gives counts as a prefix (--driver 535 is any 535.x)."""
    if not wanted:
        return None
    fields = {"cudart": wanted.get("cudart"), "cudart_header": wanted.get("cudart"), "driver": wanted.get("driver"),
              "gpu": wanted.get("gpu")}
    verdict = None
    for token in conditions:
        try:
            condition = rules_reader.parse_condition(token)
        except rules_reader.RuleError:
            continue
        field, op, value = condition.field, condition.op, condition.value
        have = fields.get(field)
        if have is None:
            continue
        if op == "~":
            ok = value.lower() in have.lower()
        elif value == "none" or not re.match(r"\d", value):
            ok = (have == value) == (op == "=")
        elif op == "range":
            low, high = version_numbers(value), version_numbers(condition.high)
            ok = low <= version_numbers(have)[:len(low)] and version_numbers(have)[:len(high)] <= high
        else:
            a, b = version_numbers(have), version_numbers(value)
            a = a[:len(b)]
            ok = {"=": a == b, "!=": a != b, ">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[op]
        verdict = ok if verdict is None else verdict and ok
    return verdict


# ---- weighing ----------------------------------------------------------------------

def _normalize(text):
    text = re.sub(r"0x[0-9a-f]+|\d+(\.\d+)?", "N", text.lower())
    return re.sub(r"\s+", " ", text).strip()


ERRORISH = re.compile(r"error|fail|assert|what\(\)|exception|warn|abort|fault|denied|cannot|unable|invalid|illegal|"
                      r"out of memory|not supported|no kernel|CUDA|CUBLAS|NCCL|cuDNN", re.I)


def _focus(text, most=40):
    """The lines of a long log that can carry the error (with the line after each), at most `most` of them."""
    lines = [line[:1000] for line in text.splitlines()]          # a line is a message, not a file
    if len(lines) <= most:
        return "\n".join(lines)
    keep, kept = [], set()
    for i, line in enumerate(lines):
        if len(keep) >= most:
            break
        if ERRORISH.search(line):
            for j in (i, i + 1):
                if j < len(lines) and j not in kept:
                    keep.append(j)
                    kept.add(j)
    keep = keep[:most] or list(range(len(lines) - most, len(lines)))
    return "\n".join(lines[i] for i in keep)


MOST_STATUSES = 12
# cases whose mistake is one request larger than the GPU, and those whose mistake is memory filled by earlier
# allocations: an out-of-memory message's sizes tell them apart
ONE_REQUEST_TOO_LARGE = re.compile(r"larger_than_gpu|past_what_exists|past_gpu_memory")
FILLED_BY_ALLOCATIONS = re.compile(r"allocations_until_out_of_memory|leaked_until")
LONG_INPUT = 100_000      # characters past which only the parts of the input that can carry an error are read
LONG_LINE = 4_000
WINDOW = 400


def _bounded(text):
    """What of a very long input is read: every line of up to LONG_LINE characters as it is, and of a longer line the
    windows of WINDOW characters around the words that can carry an error (ERRORISH); past LONG_INPUT characters only
    the lines that can carry an error, up to twice that. One pass over the input: explain's time grows linearly with it."""
    if len(text) <= LONG_INPUT:
        return text
    pieces, size = [], 0
    for line in text.splitlines():
        if len(line) > LONG_LINE:
            spans = []
            for match in ERRORISH.finditer(line):
                low, high = max(0, match.start() - WINDOW), match.end() + WINDOW
                if spans and low <= spans[-1][1]:
                    spans[-1][1] = max(spans[-1][1], high)
                else:
                    spans.append([low, high])
                if sum(b - a for a, b in spans) > LONG_INPUT:
                    break
            line = " … ".join(line[a:b] for a, b in spans) if spans else line[:LONG_LINE]
        if size + len(line) > LONG_INPUT and pieces:
            # past the budget only the lines that can carry an error are kept (a log's error is often its last line),
            # up to twice the budget in all
            if not ERRORISH.search(line):
                continue
            if size + len(line) > 2 * LONG_INPUT:
                break
        pieces.append(line)
        size += len(line) + 1
    return "\n".join(pieces)


@functools.lru_cache(maxsize=8192)
def _similar(a, b, floor=0.6):
    """difflib's ratio of a and b where it reaches the floor — raised to how much of a stands in b where one is quoted
    inside the other — and 0 where it cannot (what the callers compare with the floor is the same). The work that
    cannot reach the floor is skipped on cheap upper bounds: the lengths, the characters in common, the longest block
    no longer than either."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < floor - 0.3:
        return 0.0
    quick = matcher.quick_ratio()
    if quick < floor - 0.3:
        return 0.0
    # no block, and no matching, holds more characters than the longest common subsequence
    in_common = _common_subsequence(a, b) if quick >= floor or len(a) >= 30 and len(b) >= 30 else 0
    # one quoted inside the other, with a prefix or a tail of its own ("Exception in worker ...: <message>"): a block
    # of at least 30 characters, worth its share of the recorded message
    blocks = len(a) >= 30 and len(b) >= 30 and min(in_common, len(b)) >= max(30, floor * len(a))
    ratio = matcher.ratio() if quick >= floor and 2.0 * in_common / (len(a) + len(b)) >= floor else 0.0
    if blocks and ratio < 0.95:
        block = matcher.find_longest_match(0, len(a), 0, len(b))
        if block.size >= 30:
            ratio = max(ratio, min(0.95, block.size / len(a)))      # how much of the recorded message the text holds
    return ratio if ratio >= floor else 0.0


@functools.lru_cache(maxsize=4096)
def _common_subsequence(a, b):
    """The length of the longest common subsequence of a and b, a bit per character of a (Hyyrö's bit-parallel
    form): an upper bound of what difflib matches, at a tenth of its cost."""
    masks = {}
    for i, ch in enumerate(a):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for ch in b:
        u = v & masks.get(ch, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - bin(v).count("1")


@functools.lru_cache(maxsize=4096)
def _stem(function):
    """cudaMemcpyAsync -> cudamemcpy; cublasSgemm_v2 / cublasGemmEx -> cublasgemm."""
    f = re.sub(r"(_v\d+|Async|_64|Ex)$", "", function or "")
    f = re.sub(r"^cublas[SDCZH](?=[a-z])", "cublas", f)
    f = re.sub(r"^cublas(\w*?)(Strided)?Batched", r"cublas\1", f)
    return f.lower()


@functools.lru_cache(maxsize=4096)
def _kinds(text):
    """The kinds of call a function (or step) name is: launch, alloc, copy, sync, create, ..."""
    text = (text or "").lower()
    return frozenset(kind for kind, pattern in KINDS if re.search(pattern, text))


# What the words of a message say was being done when it failed, where no API call is named: an allocation
# ("RMM allocation during ..."), a copy to the host or a wait (PyTorch's .item(), .cpu(), synchronize()).
TEXT_KINDS = [("alloc", r"\ballocat\w*|\bmalloc\w*"), ("sync", r"\bsynchroni[sz]\w*|\.item\(\)|\.cpu\(\)|\.tolist\(\)"),
              ("copy", r"\bcop(?:y|ies|ying)\b|\bmemcpy\w*|\.item\(\)|\.cpu\(\)|\.tolist\(\)|\bto the host\b"),
              ("query", r"\bquer(?:y|ies|ying)\b"), ("free", r"\bfree(?:d|ing)?\b|\bdealloc\w*"),
              ("event", r"\bevent\b"), ("peer", r"\bpeer\b|\bp2p\b")]


def _text_kinds(text):
    lowered = text.lower()
    return {kind for kind, pattern in TEXT_KINDS if re.search(pattern, lowered)}


def _score(parts):
    main = ("status", "message", "lesson_status", "framework")
    primary = sorted((parts.get(k, 0) for k in main), reverse=True)
    # the words of the text break ties between cases that return the status; alone, they are all there is
    context = parts.get("context", 0) * (0.5 if "status" in parts or "message" in parts else 1.0)
    return round(primary[0] + 0.1 * sum(primary[1:]) + context + parts.get("meaning", 0) - parts.get("unlike_pytorch", 0)
                 - parts.get("contradicted", 0), 3)


class Candidate:
    def __init__(self, case):
        self.case = case
        self.parts = {}            # kind -> score
        self.reasons = []          # (score, line)
        self.confidence = RELATED
        self.evidence_count = 0
        self.aftermath = False
        self.lesson_level = False      # its broken variant, and not its fixed one, returned the status
        self.call_matched = False      # at the kind of call the text names
        self.message_exact = False     # a recorded message, nearly word for word
        self.quoted = False            # its lesson quotes the message, nearly word for word
        self.sizes_prove = False       # an out-of-memory message's sizes show this case's mistake (a request over the total)
        self.context_words = []
        self.name_context = False      # the text's words name what the case is about
        self.context_raw = 0.0         # how much of the text's words its name and lesson share, uncapped
        self.in_name = []              # the text's words that its name or title has
        self.documents_only = False    # its lesson quotes or discusses the status; its GPU runs never returned it
        self.said = {}                 # kind -> of that part's score, what the text itself says (its call, versions...)
        self.history = False           # brought in by a status another toolkit gave for its mistake
        self.real_world = 0            # how many real reports had this case as their cause (ordering ties only)

    def from_text(self):
        """How much of the score the text itself earns — the status's call, versions and place, a recorded message,
        the text's words, PyTorch's own refusal, a framework's message that signals the case's cause — as against what the corpus says of the case (how many statuses its
        mistake returns, whether a GPU ran it, the header's wording): the score less the score without them."""
        corpus_only = dict(self.parts)
        for kind in ("message", "context", "unlike_pytorch", "framework"):
            corpus_only.pop(kind, None)
        for kind in ("status", "lesson_status"):
            if kind in corpus_only:
                corpus_only[kind] -= self.said.get(kind, 0)
        return round(self.score - _score(corpus_only), 3)

    def add(self, kind, score, reason):
        if score > self.parts.get(kind, 0):
            self.parts[kind] = score
        self.reasons.append((score, reason))

    @property
    def score(self):
        return _score(self.parts)

    def best_reasons(self, n):
        seen, out = set(), []
        for _, reason in sorted(self.reasons, key=lambda r: -r[0]):
            if reason not in seen:
                seen.add(reason)
                out.append(reason)
        return out[:n]


class Answer:
    def __init__(self, text):
        self.text = text
        self.statuses, self.wrappers, self.calls, self.versions, self.context = [], [], [], {}, []
        self.why_not_one = None        # why no case is the cause although the status singles some out
        self.memory = None         # (sizes, what they say, words) of an out-of-memory message
        self.wanted = {}
        self.candidates = []       # ranked cases
        self.answers = []          # ranked causes (CauseAnswer), each with its cases
        self.frameworks = []       # the catalogue entries (data/frameworks/messages.tsv) the text matched
        self.parameter = None      # (routine, number, [(function, parameter)]): cuBLAS's parameter number decoded
        self.unmatched_gpu = None  # a --gpu no recorded environment has: not narrowed by
        self.documented = []
        self.ties = []             # cases the message cannot separate, in the order given
        self.tie_ordered = False   # ordered by how often real reports had them as their cause
        self.tie_text_first = False  # some of them first all the same: the text says a little more for them
        self.real_world_total = 0  # out of how many real reports
        self.kind = "none"

    @property
    def errors(self):
        return [s for s in self.statuses if s.role == "error"]

    @property
    def exit_code(self):
        # answered: a cause, possible causes or a documented cause; 1 only
        # when nothing matches (the status's meaning is printed instead)
        return 0 if self.kind in ("cause", "documented", "possible") else 1

    def causes(self):
        return [c for c in self.candidates if c.confidence == CAUSE]


class Candidates(dict):
    """The cases weighed so far, by name: a stage that weighs a case adds it the first time."""
    def __missing__(self, case):
        self[case] = Candidate(case)
        return self[case]


class Reading:
    """What the text says, read once — its statuses (and those the frameworks' messages wrap), calls, versions,
    words, out-of-memory sizes and the versions the user gave. The answer's account of the text is filled as it
    is read; every stage weighs the cases against it."""
    def __init__(self, text, corpus, wanted=None):
        answer = Answer(text)
        text = _bounded(text)
        vocabulary = corpus.vocabulary
        # the statuses the text names, the errors first: a log naming hundreds (a dump of numbers) is weighed by its first
        # few, so the time stays bounded whatever is pasted
        answer.statuses = recognise(text, vocabulary)[:MOST_STATUSES]
        answer.wrappers = explain_status.wrappers(text)
        # the frameworks' own messages (read in their sources): the status a message wraps is recognised where the text
        # does not name it, and the cause a message signals is weighed below
        answer.frameworks = framework_hits(text, corpus)
        named = {n for s in answer.statuses for n in s.same_as}
        for entry in answer.frameworks:
            wrapped = entry.get("wraps_status", "-")
            if wrapped in vocabulary.by_name and wrapped not in named:
                status = explain_status.Status(wrapped, vocabulary.by_name[wrapped][0],
                                               "wrapped by %s's message (%s)" % (entry["framework"], entry["id"]), "error",
                                               framework_regex(entry).search(text).start())
                status.same_as = vocabulary.same_as(wrapped)
                answer.statuses.append(status)
                named |= status.same_as
        answer.calls = [c for c in explain_status.calls(text) if c not in vocabulary.by_name]
        answer.versions = explain_status.versions(text)
        focus = _focus(text)
        answer.context = explain_status.context_words(focus)
        answer.memory = explain_status.memory_context(focus)
        answer.wanted = dict(wanted or {})
        if answer.wanted.get("gpu") and not any(environment_matches(r.environment, {"gpu": answer.wanted["gpu"]})
                                                 for r in corpus.results if r is not None):
            # nothing was recorded on that GPU: narrowing to it would keep only what matches by accident
            answer.unmatched_gpu = answer.wanted.pop("gpu")
        explicit = bool(answer.wanted)
        seen_versions = {k: v for k, v in answer.versions.items() if k in ("cudart", "driver", "gpu")}
        errors = answer.errors
        error_names = [s.same_as for s in errors]
        user_calls = set(answer.calls)
        user_stems = {_stem(f) for f in user_calls}
        user_libraries = {call_library(f) for f in user_calls} - {""}
        user_kinds = set().union(*(_kinds(f) for f in user_calls)) if user_calls else set()
        if re.search(LAUNCH_WORDS, text, re.I):
            user_kinds.add("launch")
        user_kinds |= _text_kinds(focus)
        several_gpus = bool(MULTI_GPU.search(text))
        self.text, self.focus, self.answer, self.vocabulary = text, focus, answer, vocabulary
        self.explicit, self.seen_versions, self.errors, self.error_names = explicit, seen_versions, errors, error_names
        self.user_calls, self.user_stems, self.user_libraries = user_calls, user_stems, user_libraries
        self.user_kinds, self.several_gpus = user_kinds, several_gpus
        # status index -> cases whose broken variant returns it
        self.producers = producers(corpus, error_names)


def producers(corpus, error_names):
    """{index of a status the text names: the cases whose broken variant returns it (at the lesson's step)}."""
    found = collections.defaultdict(set)
    for case, observations in corpus.observations.items():
        for obs in observations:
            for i, names in enumerate(error_names):
                if obs.status in names and obs.lesson:
                    found[i].add(case)
    return found


def weigh_statuses(reading, corpus, candidates):
    """1. The statuses each case returned (runs) or is expected to return (rules), against those the text names."""
    text, answer, explicit, seen_versions = reading.text, reading.answer, reading.explicit, reading.seen_versions
    error_names, user_calls, user_stems = reading.error_names, reading.user_calls, reading.user_stems
    user_libraries, user_kinds, several_gpus = reading.user_libraries, reading.user_kinds, reading.several_gpus
    for case, observations in corpus.observations.items():
        best = None
        for obs in observations:
            index = next((i for i, names in enumerate(error_names) if obs.status in names), None)
            if index is None:
                continue
            if obs.source == "run":
                fits = environment_matches(obs.environment, answer.wanted)
            else:
                fits = conditions_hold(obs.conditions, answer.wanted)
            if explicit and fits is False:
                continue                                     # narrowed to the user's versions
            score = 50 if obs.lesson else (20 if obs.variant == "broken" else 12)
            if obs.lesson and obs.first:
                score += 10
            said = 0                                        # of the score, what the text itself says
            call = obs.function or ""
            if call and call in user_calls:
                said += 20
            elif call and _stem(call) in user_stems:
                said += 12
            elif _kinds(call + " " + (obs.step or "")) & user_kinds:
                said += 8
            elif call and call_library(call) in user_libraries:
                said += 3
            if obs.environment and obs.environment.get("driver", "none") != "none" and not _no_driver(obs):
                score += 4                                  # seen on a GPU (a run, or the run a rule cites)
            like = environment_matches(obs.environment, seen_versions) if obs.source == "run" else \
                conditions_hold(obs.conditions, seen_versions)
            if like is True:
                said += 5
            elif like is False:
                said -= 8
            mode = (obs.environment or {}).get("mode", "default") if obs.source == "run" else "default"
            if mode not in ("default", "sanitizer", None) and not _text_shows_mode(text, mode):   # (the sanitizer: below)
                said -= 6                                   # seen only under a debugging mode the text does not show
            if _under_tool(obs):
                # what compute-sanitizer reports in place of the program's own status: evidence for a sanitizer's
                # report, barely for what the program printed by itself
                said += 5 if "compute-sanitizer" in answer.wrappers else -15
            if case in corpus.no_mistake:
                score -= 3                                  # where an earlier fault surfaces, not a mistake of its own
            if case in corpus.needs_two_gpus and not several_gpus:
                said -= 0.5                                 # it needs a second GPU, which the text never shows (less than
                #                                             a point: among equals, how often real reports had it decides)
            said -= 4 * index                               # the first error named leads
            score += said
            score -= 2 * min(3, corpus.statuses_of_mistake(case) - 1)    # a case about this one status explains it best
            if best is None or score > best[0]:
                best = (score, obs, said)
        if best:
            score, obs, said = best
            c = candidates[case]
            c.said["status"] = said
            c.aftermath = obs.lesson and not obs.first and obs.source == "run" or case in corpus.no_mistake
            what = "%s%s at step %s of the %s variant" % (obs.status, " from %s" % obs.function if obs.function else "", obs.step, obs.variant)
            if obs.step == "end":
                what = "the %s variant ended with %s" % (obs.variant, obs.status)
            same = [o for o in observations if o.status == obs.status and o.step == obs.step and o.variant == obs.variant
                    and not (explicit and (environment_matches(o.environment, answer.wanted) if o.source == "run"
                                           else conditions_hold(o.conditions, answer.wanted)) is False)]
            # the user's versions first, then GPUs before no-driver machines
            # (a complete run with the whole toolkit before a partial one or a runtime-only column)
            same.sort(key=lambda o: (environment_matches(o.environment, answer.wanted or seen_versions) is not True,
                                     o.source != "run", _no_driver(o), (o.environment or {}).get("mode", "default") != "default",
                                     "partial" in (o.where or ""), (o.environment or {}).get("cublas", "none") == "none",
                                     tuple(-x for x in version_numbers((o.environment or {}).get("cudart", "0")))))
            places, uncounted = [], 0
            for o in same:
                uncounted += o.extra
                for place in o.places():
                    where = ("rule %s" % place) if o.source == "rule" else place
                    if where not in places:
                        places.append(where)
            runs = [p for p in places if not p.startswith("rule ")]
            more = len(runs) - 1 + uncounted
            shown = runs[:1] + (["and %d more environment%s" % (more, "s" if more > 1 else "")] if more > 0 else [])
            if not runs:
                shown = places[:1]
            c.add("status", score, "%s — %s" % (what, ", ".join(shown)))
            c.evidence_count = len(places) + uncounted
            c.lesson_level = obs.lesson
            c.call_matched = bool(obs.function) and (obs.function in user_calls or _stem(obs.function) in user_stems)


def weigh_messages(reading, corpus, candidates):
    """2. The messages recorded for each case — a mirror's exception, cuBLAS's parameter line, stderr, the lesson's
    quotes — against the text's lines."""
    text, focus, answer, vocabulary = reading.text, reading.focus, reading.answer, reading.vocabulary
    explicit, error_names = reading.explicit, reading.error_names
    wanted_lines = list(dict.fromkeys(_normalize(line) for line in focus.splitlines() if line.strip())) or [_normalize(focus)]
    whole = _normalize(focus)
    entry = ON_ENTRY.search(text)
    mine = {n for names in error_names for n in names}
    # cuBLAS's parameter number, decoded with the routine's signature: the argument is named, and the cases whose
    # mistake is that argument weigh as if they had printed the line (whatever routine they called)
    answer.parameter = decode_parameter(entry, corpus)
    if answer.parameter:
        routine, number, found = answer.parameter
        names = {p.lower() for _, p in found}
        for name in corpus.case_names():
            words = set(name.split("_"))
            if names & words and name in getattr(corpus, "uses_cublas", ()):
                candidates[name].add("message", 90, "cuBLAS's parameter %d of %s is %s (%s); this case's mistake is "
                                    "its %s" % (number, routine, "/".join(sorted({p for _, p in found})),
                                                ", ".join(sorted({f for f, _ in found})), "/".join(sorted(names & words))))
    # what PyTorch says for each case (its mirror's exception, the PyTorch messages its lesson quotes): where the
    # text is PyTorch's, a case for which PyTorch refuses with its own message is the less likely
    # (only where the text shows PyTorch printed it: a bare status line is what cudaGetErrorString gives every
    # program, and that PyTorch raised the status for a mistake says nothing of a line nobody says is PyTorch's)
    from_pytorch = "PyTorch" in answer.wrappers
    torch_said, torch_agrees = {}, set()
    mine_rest = None               # the text's lines less their statuses and calls (worked out where first needed)
    for case, messages in corpus.messages.items():
        for message, places, kind in messages:
            if explicit:
                places = [p for p in places if environment_matches(p[1], answer.wanted) is not False]
                if not places:
                    continue                                 # recorded only where the user is not
            where = places[0][0] + (", and %d more" % (len(places) - 1) if len(places) > 1 else "")
            recorded = _normalize(message)
            if len(recorded) < 12:
                continue
            torch_message = kind == "pytorch" or kind == "lesson" and corpus.is_pytorch_message(case, message)
            if torch_message and "PyTorch" in answer.wrappers and mine:
                said = corpus.message_errors(message)
                if not said:
                    # PyTorch refuses by itself, before CUDA says anything ("CUDA graphs must be captured on a
                    # non-default stream"); a different CUDA status may only be another CUDA version's
                    torch_said.setdefault(case, message)
                elif said & mine:
                    torch_agrees.add(case)
            if entry and ON_ENTRY.search(message):
                seen = ON_ENTRY.search(message)
                if seen and seen.group(2) == entry.group(2):
                    same = seen.group(1).upper() == entry.group(1).upper()
                    said = "cuBLAS printed" if kind == "library" else "its lesson quotes"
                    candidates[case].add("message", (92 if kind == "library" else 88) if same else 35,
                                        '%s "%s" — %s' % (said, message, where))
                continue
            if entry and kind == "library":
                continue
            named_errors = corpus.message_errors(message)
            if named_errors and mine and not named_errors & mine:
                continue                                     # a match must agree on the status it names
            ratio = 1.0 if recorded in whole or (len(whole) > 20 and whole in recorded) else \
                max(_similar(recorded, line) for line in wanted_lines)
            if ratio < 0.6:
                continue
            if kind == "lesson" and corpus.not_reproduced(case, named_errors & mine):
                # a report the lesson quotes, which the case's runs on the GPUs here do not reproduce
                c = candidates[case]
                c.documents_only = True
                # weighed as a lesson that discusses the status, not as a recorded message
                c.add("lesson_status", 8, 'its lesson quotes "%s" from a report; on the GPUs here its broken variant never '
                      'returned %s (documented, not reproduced)' % (message[:120], "/".join(sorted(named_errors & mine))))
                continue
            if named_errors & mine:
                # the status is weighed already: what else do the two say alike?
                rest = corpus.message_rest(message)
                if mine_rest is None:
                    mine_rest = [_normalize(context_text(line, answer.statuses, answer.calls, vocabulary))
                                 for line in focus.splitlines()]
                shortest = min([len(m) for m in mine_rest if m] or [0])
                if len(rest) < 12 or shortest < 12:
                    # one of them says nothing but the status: they agree on it, and on no more. The status is
                    # weighed already; that PyTorch raised it for this mistake says only that PyTorch users meet it
                    if torch_message and from_pytorch:
                        candidates[case].add("message", 20, '%s "%s" — %s' % (
                            "PyTorch raised" if kind == "pytorch" else "its lesson quotes PyTorch's", message[:160], where))
                    continue
                else:
                    ratio = min(ratio, max([1.0 if rest in m or len(m) >= 12 and m in rest else _similar(rest, m)
                                            for m in mine_rest if m] or [0.0]))
                if ratio < 0.6:
                    continue
            base = {"pytorch": 55, "library": 50, "stderr": 50, "lesson": 48}[kind]
            label = {"pytorch": "PyTorch raised", "library": "cuBLAS printed", "stderr": "the broken variant printed",
                     "lesson": "its lesson quotes"}[kind]
            c = candidates[case]
            c.add("message", base + 45 * ratio, '%s "%s" — %s' % (label, message[:160], where))
            if ratio >= 0.85:
                if kind == "lesson":
                    c.quoted = True
                else:
                    c.message_exact = True

    for case, message in torch_said.items():
        c = candidates.get(case)
        if c is not None and case not in torch_agrees and "status" in c.parts:
            c.parts["unlike_pytorch"] = 2.0
            c.reasons.append((1.0, 'for this mistake PyTorch says something else: "%s"' % message[:160]))


def weigh_lessons(reading, corpus, candidates):
    """3. Lessons that discuss the status the text names (also of cases no environment has run)."""
    vocabulary, errors, user_calls = reading.vocabulary, reading.errors, reading.user_calls
    user_kinds, producers = reading.user_kinds, reading.producers
    for i, status in enumerate(errors):
        text_of = next((vocabulary.text[n] for n in [status.name] + sorted(status.same_as) if vocabulary.text.get(n)), "")
        said = text_of.lower()
        for name, case in corpus.cases.items():
            lesson, lowered, quotes = corpus.lesson_text(name)
            names = [n for n in [status.name] + sorted(status.same_as - {status.name})
                     if n in lesson and re.search(r"\b%s\b" % re.escape(n), lesson)]
            # the status's text, whole or quoted by its first words ("no kernel image is available")
            quoted = len(said) >= 12 and (said in lowered or any(said.startswith(q) for q in quotes))
            if (names or quoted) and corpus.not_reproduced(name, set(status.same_as)):
                c = candidates[name]
                c.documents_only = True
                c.add("lesson_status", 8, "its lesson discusses %s; on the GPUs here its broken variant returned %s "
                      "instead" % (names[0] if names else '"%s"' % text_of,
                                   ", ".join(sorted(corpus.gpu_broken_statuses[name] - SUCCESS)[:3]) or "success"))
                continue
            if names or quoted:
                produced = bool(producers.get(i))
                functions = set(f for fs in corpus.step_functions.get(name, {}).values() for f in fs)
                functions |= set(explain_status.calls(case.title + " " + case.sections.get("mistake", "")))
                steps = " ".join(corpus.step_functions.get(name, {}))
                bonus = 10 if functions & user_calls else (5 if _kinds(" ".join(functions) + " " + steps) & user_kinds else 0)
                if (20 if produced else 32) - 4 * i + bonus > candidates[name].parts.get("lesson_status", 0):
                    candidates[name].said["lesson_status"] = bonus - 4 * i
                candidates[name].add("lesson_status", (20 if produced else 32) - 4 * i + bonus,
                                    'its lesson discusses %s — %s' % (names[0] if names else '"%s"' % text_of, case.source_path))


def weigh_status_history(reading, corpus, candidates):
    """3b. A status an older toolkit (or another build) gave for a mistake whose case returns another status here: the
    mistake's cases, as possible causes, saying what the runs here returned instead."""
    # a row whose number the text prints first (the same status numbered 8 before CUDA 10.1 and 98 since)
    history = sorted(getattr(corpus, "mistake_history", ()),
                     key=lambda row: not re.search(r"\b%s\b" % re.escape(row["number"]), reading.text))
    # the status the cases here return weighs as much for a mistake a thread saw give it: both are observed, so they
    # tie, and real reports order them (an "invalid device symbol" is more often a missing kernel image)
    level = max((c.parts.get("status", 0) for c in candidates.values()), default=0)
    for i, status in enumerate(reading.errors):
        for row in history:
            if row["status"] not in status.same_as:
                continue
            for name in corpus.case_names():
                if corpus.cause_of.get(name) != row["cause_key"]:
                    continue
                if level:
                    candidates[name].parts["status"] = max(candidates[name].parts.get("status", 0), level)
                here = ", ".join(sorted(n for n in corpus.gpu_broken_statuses[name] - SUCCESS
                                        if n in reading.vocabulary.by_name)[:3]) or "no error"
                candidates[name].history = True
                candidates[name].add("lesson_status", 30 - 4 * i, "%s (%s) is what %s returned for this mistake (%s); on "
                                     "the GPUs here its broken variant returns %s" % (
                                         row["status"], row["number"], row["seen_with"], row["source"], here))


def weigh_words(reading, corpus, candidates):
    """4. The words of the text against each case's name, title and lesson."""
    focus, answer, vocabulary = reading.focus, reading.answer, reading.vocabulary
    errors, producers = reading.errors, reading.producers
    # the words that said the kind of call ("kernel launch failed") are weighed already, as that kind
    words = set(_tokens(re.sub(LAUNCH_WORDS, " ", context_text(focus, answer.statuses, answer.calls, vocabulary), flags=re.I)))
    if answer.memory:
        words |= set(answer.memory[2])
    meaning_words = set()       # they may match a lesson, not a case's name (the header does not name mistakes)
    # a status no case returns or discusses: what the header says it means is all there is to go on
    for i, status in enumerate(errors):
        if not producers.get(i) and not any("lesson_status" in c.parts for c in candidates.values()):
            meaning = vocabulary.describe(status.name)["meaning"]
            meaning_words |= set(_tokens(meaning)) - set(_tokens(vocabulary.text.get(status.name, ""))) - words
    (name_words, lesson_words), idf = corpus.words, corpus.idf
    total = sum(idf.get(w, 0) for w in words | meaning_words)
    for name in lesson_words:
        in_name = [w for w in words if w in name_words[name] and idf.get(w, 0) > 1.0]
        in_lesson = [w for w in words if w in lesson_words[name] and idf.get(w, 0) > 0.7]
        from_meaning = [w for w in meaning_words if w in lesson_words[name] and idf.get(w, 0) > 0.7]
        if len(from_meaning) >= 2:           # one word of a header's sentence ("detected") is chance
            in_lesson += from_meaning
        if not in_lesson:
            continue
        strength = sum(idf[w] for w in in_name)
        score = min(12.0, 3.0 * strength) + min(10.0, 25.0 * sum(idf[w] for w in in_lesson) / max(total, 10.0))
        if score >= 2.0:
            c = candidates[name]
            c.parts["context"] = round(min(30.0, score), 3)
            c.context_raw = strength + sum(idf[w] for w in in_lesson)
            # two rare words of its name, or what the sizes of an out-of-memory message say
            c.name_context = len(in_name) >= 2 and strength >= 4.0 or bool(answer.memory and set(in_name) & set(answer.memory[2]))
            c.in_name = in_name
            c.context_words = sorted(set(in_name + in_lesson), key=lambda w: (w not in in_name, -idf[w], w))[:6]
            from_meaning = [w for w in c.context_words if w in meaning_words]
            c.reasons.append((score / 2, "its %s speaks of %s%s" % (
                "name" if in_name else "lesson", ", ".join(c.context_words),
                " (%s: words of what the header says the status means)" % ", ".join(from_meaning) if from_meaning else "")))


def weigh_header_meaning(reading, corpus, candidates):
    """4b. Among the cases that return or discuss a status, the one whose mistake is told in the words of the
    header's own account of the status leads, by a little."""
    vocabulary, errors, idf = reading.vocabulary, reading.errors, corpus.idf
    for i, status in enumerate(errors):
        meaning = vocabulary.describe(status.name)["meaning"]
        said = set(_tokens(meaning)) - set(_tokens(vocabulary.text.get(status.name, "")))
        if not said:
            continue
        for c in candidates.values():
            if not ({"status", "lesson_status"} & set(c.parts)):
                continue
            case = corpus.cases.get(c.case)
            told = set(_tokens(c.case.replace("_", " ") + " " + (case.title + " " + case.sections.get("mistake", "") if case else "")))
            hit = [w for w in said & told if idf.get(w, 0) > 1.0]
            if hit:
                weight = round(min(2.0, 0.2 * sum(idf[w] for w in hit)), 3)
                if weight > c.parts.get("meaning", 0):
                    c.parts["meaning"] = weight
                    c.reasons.append((1.0, "its mistake is what the header says %s means (%s)" % (status.name, ", ".join(sorted(hit)))))


def weigh_framework_causes(reading, corpus, candidates):
    """4c. A framework message that signals a cause: the cases that reproduce that cause weigh as a recorded
    message would."""
    answer = reading.answer
    for entry in answer.frameworks:
        key = entry.get("cause_key", "-")
        if key in ("", "-"):
            continue
        for name in corpus.case_names():
            if corpus.cause_of.get(name) == key:
                c = candidates[name]
                c.add("framework", 72, "%s prints this message for this cause: %s (%s)" % (
                    entry["framework"], entry.get("meaning", "").rstrip("."), entry.get("source", "")))


def weigh_calls(reading, corpus, candidates):
    """5. The calls the text names, among the calls each case makes (what it is about, whatever the status)."""
    user_calls, user_stems = reading.user_calls, reading.user_stems
    if user_calls:
        callers = collections.defaultdict(set)
        for name in corpus.case_names():
            for fs in corpus.step_functions.get(name, {}).values():
                for f in fs:
                    callers[f].add(name)
        count = max(1, len(corpus.case_names()))
        for name in corpus.case_names():
            functions = set(f for fs in corpus.step_functions.get(name, {}).values() for f in fs)
            same = sorted(functions & user_calls) or sorted(f for f in functions if _stem(f) in user_stems)
            # a call most cases make (cudaMalloc, cudaDeviceSynchronize) says little about which one
            same = [f for f in same if len(callers[f]) <= count / 4]
            if same:
                c = candidates[name]
                weight = max(math.log(count / len(callers[f])) for f in same)
                c.parts["context"] = round(min(30.0, c.parts.get("context", 0) + 3.0 * weight), 3)
                c.reasons.append((4.0, "it calls %s" % ", ".join(same[:3])))


def decide_confidence(reading, corpus, candidates):
    """How sure: a case is the cause only where the evidence singles it out."""
    (name_words, _), idf = corpus.words, corpus.idf
    answer, errors, error_names = reading.answer, reading.errors, reading.error_names
    # confidence: a cause only where the evidence singles the case out — the
    # only cases (at most two) whose broken variant returns the status, or the
    # only ones of them that also match the call or the words of the text
    returning = [c for c in candidates.values() if c.lesson_level and "status" in c.parts]
    # the words that single a case out are those most of the others lack ("graph" and "capture" name every
    # capture case: they narrow nothing among them)
    shared = collections.Counter(w for c in returning for w in name_words.get(c.case, ()))
    for c in returning:
        if c.name_context and len(returning) > 2 and not (answer.memory and set(c.in_name) & set(answer.memory[2])):
            own = [w for w in c.in_name if shared[w] <= len(returning) / 2]
            c.name_context = len(own) >= 2 and sum(idf.get(w, 0) for w in own) >= 4.0
    narrowed = [c for c in returning if c.call_matched or c.name_context]
    if any(set(names) & corpus.environment_statuses for names in error_names):
        chosen = []          # a machine without a driver returns it for every case: no mistake is singled out
    elif errors and all(ARGUMENT_STATUS.search(n) for names in error_names for n in names) \
            and not any(c.call_matched for c in returning):
        chosen = []          # "an argument was wrong", of a call the text does not name: any parameter of any call
    elif errors and (set(answer.wrappers) & RUNS_ITS_OWN_KERNELS or GENERATED_KERNEL.search(reading.text)) \
            and all(set(names) & KERNEL_FAULTS for names in error_names):
        # a kernel fault reported from a library's own execution, or in a kernel a compiler generated: the kernel that
        # faulted was one the library ran or the compiler wrote, where every case here faults in a kernel of its own
        chosen = []
        runner = "/".join(sorted(set(answer.wrappers) & RUNS_ITS_OWN_KERNELS))
        where = ("the fault was reported by %s's own execution: the kernel that faulted was one it ran (its own or a "
                 "plugin's)" % runner) if runner else \
            "the fault was in a kernel a compiler generated (TorchInductor's Triton kernels), not one the user wrote"
        answer.why_not_one = where + ("; the cases below show the same status from a kernel of their own, so none is "
                                      "the cause (a library or compiler bug, or bad buffers handed to it)")
    elif errors and all(set(names) <= ASSERT_STATUS for names in error_names) \
            and not any(e.get("cause_key") not in (None, "", "-") for e in answer.frameworks):
        chosen = []          # an assert failed; which check, the message does not say
    elif 0 < len(returning) <= 2 or 0 < len({corpus.cause_of.get(c.case) for c in returning}) == 1:
        chosen = returning                   # two mistakes at most, or several cases of one cause
    elif 0 < len(narrowed) <= 2 or 0 < len({corpus.cause_of.get(c.case) for c in narrowed}) == 1:
        chosen = narrowed
    else:
        chosen = []
    # a framework message that signals its cause (its own source says when it prints it): a case of another cause is
    # at most possible (an nll_loss label assert is not a token id past the vocabulary, whatever status both give)
    signalled = {e.get("cause_key") for e in answer.frameworks} - {"", "-", None}
    if signalled:
        chosen = [c for c in chosen if corpus.cause_of.get(c.case) in signalled]
    # another mistake gave this status under older toolkits or other builds (data/status_history/mistakes.tsv): the
    # status no longer singles one mistake out
    if any(c.history and corpus.cause_of.get(c.case) not in {corpus.cause_of.get(o.case) for o in chosen}
           for c in candidates.values()):
        chosen = []
    # words recorded or quoted for a case make it the cause unless the text names a status that case never gives and
    # another mistake does (or did, under older toolkits): the same words are printed on another path (ptxas's
    # "Unsupported .version" is printed by the driver's PTX JIT too)
    statused = errors and any({"status", "lesson_status"} & set(c.parts) for c in candidates.values())
    unsaid = {c.case for c in candidates.values() if statused and not {"status", "lesson_status"} & set(c.parts)}
    quoting = [c for c in candidates.values() if c.quoted]
    # a message recorded word for word for several mistakes (PyTorch's "Cannot re-initialize CUDA in forked
    # subprocess" for three fork cases) tells the kind of mistake, not which: the cause only where one case has it
    exact = [c for c in candidates.values() if c.message_exact]
    for c in candidates.values():
        # (words single their case out only where no case of another cause recorded or quoted the same words: a
        # lesson's quote is what a user of another release saw, as NVRTC's "invalid value for --gpu-architecture" is
        # printed for an architecture too old and one too new)
        if (c.message_exact and len(exact) == 1 or c.quoted and len(quoting) == 1) \
                and all(corpus.cause_of.get(o.case) == corpus.cause_of.get(c.case) for o in exact + quoting) \
                and c.case not in unsaid or c in chosen:
            c.confidence = CAUSE
        elif c in returning or c.message_exact or c.parts.get("message", 0) >= 80 or "lesson_status" in c.parts \
                or "framework" in c.parts \
                or not errors and c.parts.get("context", 0) >= 10:
            c.confidence = POSSIBLE
        else:
            c.confidence = RELATED
        if c.documents_only and "status" not in c.parts:
            c.confidence = RELATED


def weigh_sizes(reading, candidates):
    """The sizes an out-of-memory message prints weigh."""
    answer = reading.answer
    # the sizes an out-of-memory message prints weigh: a request far below the GPU's total is not "a request larger
    # than the GPU", and a request larger than the GPU is not memory filled by earlier allocations
    if answer.memory:
        sizes = answer.memory[0]
        tried, total = sizes.get("tried"), sizes.get("total")
        if tried and total:
            wrong = ONE_REQUEST_TOO_LARGE if tried < 0.9 * total else FILLED_BY_ALLOCATIONS if tried > total else None
            for c in candidates.values():
                if wrong and wrong.search(c.case):
                    c.parts["contradicted"] = 40
                    c.confidence = RELATED
                    c.reasons.append((99.0, "the sizes say otherwise: %s requested of %s in all" % (_size(tried), _size(total))))
                elif tried > total and ONE_REQUEST_TOO_LARGE.search(c.case):
                    c.sizes_prove = True            # one request larger than the whole GPU: the numbers say it


def report_text(error_text):
    """A real report's error text as it was printed: reports.tsv joins its lines with ⏎."""
    return error_text.replace(" ⏎ ", "\n").replace("⏎", "\n")


def report_statuses(text, corpus):
    """The statuses a real report's text names as its errors (what RealWorld counts causes by)."""
    return own_statuses(Reading(text, corpus))


def own_statuses(reading):
    """The statuses the text itself names as its errors, under all their names (a bare number's second reading
    — cuFFT's 2 is also the driver's out of memory — is not the text's own)."""
    return {n for i, status in enumerate(reading.errors) if i == 0 or not status.how.startswith("number") for n in status.same_as}


# a documented cause no pattern of which the text shows is shown for its status when this many real reports with
# that status had it
REPORTS_FOR_A_STATUS = 1
# and a case is not "the cause" on the strength of a status when this many real reports of that status had a cause no
# case reproduces
REPORTS_AGAINST_A_CAUSE = 2


# a documented cause shown for the words alone: rare words of its patterns, sentence and key the text shares, at least
# two and this much inverse document frequency in all (developed on the odd rows of the real-world set)
WORDS_FOR_A_DOCUMENTED_CAUSE = 6.0
# and this much says more than the real reports of the status alone
WORDS_OVER_A_STATUS_ALONE = 10.0


def documented_by_words(text, corpus):
    """[(documented row, [shared words], their weight)], the most telling first: documented causes whose own words
    (patterns, cause, key) the text shares. A word weighs the more, the fewer documented causes use it; each row's words
    and their weights are computed once per corpus."""
    table = getattr(corpus, "_documented_words", None)
    if table is None:
        bags = [(row, set(_tokens(" ".join(row["patterns"]) + " " + row.get("cause", "") + " " + row.get("key", "").replace("_", " "))))
                for row in corpus.documented]
        frequency = collections.Counter(w for _, words in bags for w in words)
        weight = {w: math.log(len(bags) / n) for w, n in frequency.items()}
        table = corpus._documented_words = (bags, weight)
    bags, weight = table
    words = set(_tokens(text))
    found = []
    for row, theirs in bags:
        common = words & theirs
        score = sum(weight[w] for w in common)
        if len(common) >= 2 and score >= WORDS_FOR_A_DOCUMENTED_CAUSE:
            found.append((-score, row["line"], row, sorted(common, key=lambda w: (-weight[w], w))[:5]))
    return [(row, common, -score) for score, _, row, common in sorted(found, key=lambda f: f[:2])]


def find_documented(reading, corpus, candidates, real_world=None):
    """Documented causes no GPU here reproduces, whose patterns the text shows or whose framework message it holds;
    those the text matches alike ordered by how many real reports had each (real_world, a RealWorld)."""
    text, answer, vocabulary = reading.text, reading.answer, reading.vocabulary
    real_world = RealWorld() if real_world is None else real_world      # no reports: none brings a cause in
    # documented causes no GPU here reproduces; a bare number's second reading (cuFFT's 2 is also the driver's
    # out of memory) is too weak to bring one in
    mine = own_statuses(reading)
    text_specific = False
    codes = {vocabulary.by_name[n][1] for n in mine if n in vocabulary.by_name}
    status_texts = {t.lower() for t in vocabulary.text.values()}
    names_status = False        # a documented cause that names the status itself as its symptom
    for row in corpus.documented:
        hits = []
        for pattern in row["patterns"]:
            if pattern in vocabulary.by_name:
                if pattern in mine:
                    hits.append(("status", pattern))
                    names_status = True
            elif re.fullmatch(r"-?\d+", pattern):
                if int(pattern) in codes:
                    hits.append(("status", pattern))
            elif any(pattern.lower() == vocabulary.text.get(n, "").lower() for n in mine):
                hits.append(("status", pattern))          # the status's own text, the status named otherwise
            elif pattern.lower() in text.lower():
                # a status's own text (or a piece of the recognised status's text) says no more than the status
                own = pattern.lower() in status_texts or any(pattern.lower() in vocabulary.text.get(n, "").lower() for n in mine)
                hits.append(("status" if own else "text", pattern))
        # a framework's message whose source says it prints it for this cause (data/frameworks/messages.tsv)
        for entry in answer.frameworks:
            if entry.get("cause_key") == row.get("key"):
                hits.append(("text", "%s's message %s" % (entry["framework"], entry["id"])))
        if hits:
            specific = any(kind == "text" for kind, _ in hits)
            text_specific = text_specific or specific
            answer.documented.append((2 if specific else 1, len(hits), row, hits))
        else:
            # no pattern of it in the text, but real reports with this status had this cause: shown, weakest
            reports = real_world.cause_with(row.get("key"), mine)
            if reports >= REPORTS_FOR_A_STATUS:
                answer.documented.append((1, 0, row, [("reports", "%d real report%s of this status" % (reports, "s"[:reports > 1]))]))
    # alike for the text: the cause real reports of this status had more often first, then of any status
    answer.documented.sort(key=lambda d: (-d[0], -real_world.cause_with(d[2].get("key"), mine), -real_world.cause(d[2].get("key")),
                                          -d[1], d[2]["line"]))
    # documented causes whose own account shares rare words with the text: in the room left among the three shown,
    # weakest; and, sharing many, in the last place among the three that only the real reports of the status gave
    have = {d[2].get("key") for d in answer.documented[:3]}
    for row, common, weight in documented_by_words(text, corpus):
        if row.get("key") in have:
            continue
        shown = (0, 0, row, [("words", "the words %s" % ", ".join(common))])
        by_status = [i for i, d in enumerate(answer.documented[:3]) if [kind for kind, _ in d[3]] == ["reports"]]
        if len(answer.documented) < 3:
            answer.documented.append(shown)
        elif weight >= WORDS_OVER_A_STATUS_ALONE and by_status:
            answer.documented[by_status[-1]] = shown
        else:
            continue
        have.add(row.get("key"))
    # real reports of this very status whose cause no case reproduces (documented): the status alone singles out no case
    unreproduced = sum(real_world.cause_with(row.get("key"), mine) for row in corpus.documented)
    if text_specific or names_status or unreproduced >= REPORTS_AGAINST_A_CAUSE:
        # text a documented cause names explains the message better than a status alone; a documented cause whose
        # symptom is this very status explains it as well as a case the status alone singles out
        # (the call a status came from says little where the documented cause fails that same call); and where real
        # reports of the status had causes no case reproduces, a case is one possibility among them
        for c in candidates.values():
            if c.confidence == CAUSE and not c.message_exact and not c.sizes_prove and (
                    names_status or not c.call_matched):
                c.confidence = POSSIBLE


def rank(reading, corpus, candidates, real_world, limit=None):
    """The cases in order, ties ordered by real reports; the answer's candidates and causes."""
    text, answer = reading.text, reading.answer
    sureness = {CAUSE: 0, POSSIBLE: 1, RELATED: 2}
    text_words = set(re.findall(r"[a-z0-9]+", text.lower()))

    def qualified(c):
        """A case whose name is a tied case's name plus a condition the text does not state (malloc_in_another_thread_
        during_capture against malloc_during_capture): the plainer case explains as much, with less assumed."""
        mine = set(c.case.split("_"))
        for other in candidates.values():
            theirs = set(other.case.split("_"))
            if other is not c and other.confidence == c.confidence and abs(other.score - c.score) < 0.5 and theirs < mine \
                    and not (mine - theirs) & text_words:
                return True
        return False
    # ties: the text's own words, uncapped (the score caps them), then what the corpus itself points to
    ranked = sorted(candidates.values(), key=lambda c: (sureness[c.confidence], -c.score, qualified(c), -round(c.context_raw, 1),
                                                        -corpus.cited_by[c.case], -c.evidence_count,
                                                        c.aftermath, corpus.family.get(c.case, ""), c.case))
    ranked = [c for c in ranked if c.score >= 5]
    mine = own_statuses(reading)
    for c in ranked:
        # the real reports of this case, or of its cause with this very status (a row of an earlier batch names one
        # case of its cause; explain answers with causes)
        c.real_world = max(real_world[c.case], real_world.cause_with(corpus.cause_of.get(c.case), mine))
    if len(ranked) >= 2 and ranked[0].confidence != RELATED:
        top = ranked[0]
        # within a few points, on evidence of the same kind, no ranking is honest
        # (a lesson that also discusses the status, the header's words, the text's words: tie-breakers, not evidence
        # that one case returns it more than another)
        weighed = {"status", "message", "unlike_pytorch"}
        answer.ties = [c.case for c in ranked if c.confidence == top.confidence and top.score - c.score <= 4.0
                       and set(c.parts) & weighed == set(top.parts) & weighed]
        if len(answer.ties) < 2:
            answer.ties = []
        else:
            # what the message cannot separate is ordered by how often real reports had it as their cause; what the
            # text says (its call, versions, words, a recorded message) still comes first, and the corpus's own
            # tie-breakers (the order so far) last. Cases outside the tie keep their places.
            tied = [c for c in ranked if c.case in answer.ties]
            places = [i for i, c in enumerate(ranked) if c.case in answer.ties]
            order = {c.case: i for i, c in enumerate(ranked)}
            # cases the text says more for (by a point or more: a call, a version, a word) come first, a group each
            group, lead, number = {}, None, -1
            for c in sorted(tied, key=lambda c: (-c.from_text(), order[c.case])):
                if lead is None or lead - c.from_text() >= 1.0:
                    lead, number = c.from_text(), number + 1
                group[c.case] = number
            tied.sort(key=lambda c: (group[c.case], -c.real_world, order[c.case]))
            for i, c in zip(places, tied):
                ranked[i] = c
            answer.ties = [c.case for c in tied]
            answer.tie_ordered = any(c.real_world for c in tied)
            answer.tie_text_first = len(set(group.values())) > 1
    answer.candidates = ranked[:limit] if limit else ranked
    answer.answers = group_by_cause(answer.candidates, corpus)
    return ranked


def answer_kind(answer, ranked):
    """What kind of answer: the cause, a documented cause, possible causes, or none."""
    if ranked and ranked[0].confidence == CAUSE:
        return "cause"
    elif any(d[0] == 2 for d in answer.documented) or any(d[0] for d in answer.documented) and (not ranked or ranked[0].confidence == RELATED):
        return "documented"
    elif ranked and ranked[0].confidence == POSSIBLE:
        return "possible"
    else:
        return "none"


def explain(text, corpus, wanted=None, limit=None, real_world=None):
    """Rank the corpus's cases for this text. wanted: {cudart, driver, gpu} the user gave. real_world: the counts of
    real reports by cause that order a tie (a RealWorld; default the corpus's, read from reports.tsv) — a benchmark
    passes the counts of the other rows, so that no row votes for itself."""
    reading = Reading(text, corpus, wanted)
    candidates = Candidates()
    for weigh in (weigh_statuses, weigh_messages, weigh_lessons, weigh_status_history, weigh_words,
                  weigh_header_meaning, weigh_framework_causes, weigh_calls, decide_confidence):
        weigh(reading, corpus, candidates)
    weigh_sizes(reading, candidates)
    real_world = corpus.real_world if real_world is None else real_world
    find_documented(reading, corpus, candidates, real_world)
    answer = reading.answer
    answer.real_world_total = real_world.total
    answer.kind = answer_kind(answer, rank(reading, corpus, candidates, real_world, limit))
    return answer


# ---- saying it ---------------------------------------------------------------------

def _title(corpus, case):
    c = corpus.cases.get(case)
    return c.title.split("—", 1)[-1].strip() if c else ""


def _fix(corpus, case):
    c = corpus.cases.get(case)
    if not c or "fix" not in c.sections:
        return ""
    return c.sections["fix"].replace("The fix:", "").strip().split("\n\n")[0]


SUMMARY = {
    "cause": "the case%s below reproduce%s it",
    "possible": "several cases return this; nothing in the message singles one out (they are possible causes, not the cause)",
    "documented": "no case here reproduces it; a documented cause matches",
    "none": "no case reproduces this",
}


def _echo(line, most=200):
    """The input line as shown: what cannot be printed (control bytes, binary) escaped, and a long line cut at a
    word, with an ellipsis."""
    line = "".join(ch if ch.isprintable() else "\\x%02x" % ord(ch) if ord(ch) < 256 else "\\u%04x" % ord(ch)
                   for ch in line[:most * 2])
    if len(line) <= most:
        return line
    cut = line.rfind(" ", 0, most)
    return line[:cut if cut > most // 2 else most].rstrip() + " …"


def format_text(answer, corpus, show=3, every=False):
    lines = []
    lines_in = [line.strip() for line in answer.text.strip().splitlines() if line.strip()] or ["(empty)"]
    at = answer.errors[0].position if answer.errors else 0
    first = next((line for line in lines_in if answer.text.find(line) <= at < answer.text.find(line) + len(line) + 1), lines_in[0])
    lines.append("explain: %s" % _echo(first))
    if answer.wrappers:
        lines.append("printed by: %s" % ", ".join(answer.wrappers))
    vocabulary = corpus.vocabulary
    for status in answer.statuses:
        d = vocabulary.describe(status.name)
        also = sorted(status.same_as - {status.name})
        role = "" if status.role == "error" else " — only part of the check that failed, not the error"
        lines.append("recognised: %s (%s%s)%s%s%s" % (
            status.name, d["api"], ", %s" % d["code"] if d["code"] is not None else "", " = %s" % ", ".join(also) if also else "",
            " — %s" % status.how, role))
        if status.era:
            lines.append("   %s: %s" % ("note" if status.era.startswith("the text pairs") else "era", status.era))
        elif d.get("runtimes") and status.api in ("cuda", "cu"):
            lines.append("   era: of the runtimes whose strings are here (data/status_names/) only %s know it" % d["runtimes"])
    if answer.statuses and not answer.errors:
        lines.append("   the text names no failing status: only the check (cudaSuccess is what was expected, not what happened)")
    extra = []
    if answer.calls:
        extra.append("calls: " + ", ".join(answer.calls[:6]))
    if answer.versions:
        extra.append("versions in the log: " + ", ".join("%s %s" % kv for kv in sorted(answer.versions.items())))
    if answer.wanted:
        extra.append("narrowed to: " + ", ".join("%s %s" % kv for kv in sorted(answer.wanted.items())))
    if answer.unmatched_gpu:
        extra.append("no run was recorded on a GPU named %r: evidence from every GPU is shown" % answer.unmatched_gpu)
    if extra:
        lines.append("; ".join(extra))
    if answer.parameter:
        routine, number, found = answer.parameter
        lines.append("decoded: cuBLAS's parameter %d of %s is %s (%s; the handle is not counted)" % (
            number, routine, "/".join(sorted({p for _, p in found})), ", ".join(sorted({f for f, _ in found}))))
    printed_by = {w.lower() for w in answer.wrappers}
    for entry in [e for e in answer.frameworks if e["framework"].lower() in printed_by][:2]:
        # what the framework's own source says it prints this message for (where the text shows that framework
        # printed it: a bare runtime string is what every program's check prints)
        key = entry.get("cause_key", "-")
        lines.append("%s prints this for: %s%s (%s)" % (
            entry["framework"], entry.get("meaning", "").rstrip("."),
            " — cause %s" % key if key not in ("", "-") else "", entry.get("source", "")))
    if answer.memory:
        sizes, says, _ = answer.memory
        lines.append("memory: %s%s" % (", ".join("%s %s" % (k, _size(v)) for k, v in sizes.items()),
                                       " — " + "; ".join(says) if says else ""))
    causes = answer.causes()
    summary = SUMMARY[answer.kind]
    if answer.kind == "cause":
        summary = summary % (("s", "") if len(causes) > 1 else ("", "s"))
    elif answer.kind == "possible" and answer.why_not_one:
        summary = "no case here is the cause; the cases below return the same status (possible causes)"
    lines.append("answer: %s" % summary)
    if answer.why_not_one:
        lines.append("   " + answer.why_not_one)
    if answer.ties:
        tied = list(dict.fromkeys(corpus.cause_of.get(t, t) for t in answer.ties)) if hasattr(corpus, "cause_of") \
            else answer.ties
        lines.append("   equally likely, on the same evidence: %s%s" % (
            ", ".join(tied[:6]), " and %d more" % (len(tied) - 6) if len(tied) > 6 else ""))
        if answer.tie_ordered:
            lines.append("   ordered by how often real reports had each as their cause (of %d reports in "
                         "data/real_world/reports.tsv)%s" % (answer.real_world_total, "; those whose call or words the text "
                                                                "names a little more first" if answer.tie_text_first else ""))
    shown = answer.answers if every else answer.answers[:show]
    for i, a in enumerate(shown, 1):
        c = a.best
        tag = {CAUSE: "the cause", POSSIBLE: "a possible cause", RELATED: "related, not the cause"}[c.confidence]
        if c.aftermath:
            tag += ", aftermath of an earlier fault"
        lines.append("\n%d. %s [%s] — %s" % (i, a.key, tag, a.sentence))
        lines.append("   reproduced by: %s (%s) — %s" % (c.case, corpus.family.get(c.case, "?"), _title(corpus, c.case)))
        for reason in c.best_reasons(4 if every else 1):
            lines.append("   seen: " + reason)
        others = a.names()[1:]
        if others:
            lines.append("   also reproduced by: %s%s" % (", ".join(others[:5]),
                                                         " and %d more" % (len(others) - 5) if len(others) > 5 else ""))
        if c.case in answer.ties and answer.tie_ordered:
            lines.append("   equally likely from the message; ordered by how often real reports had this cause (%d of %d reports)"
                         % (c.real_world, answer.real_world_total))
        fix = _fix(corpus, c.case)
        if fix and c.confidence != RELATED:
            lines.append("   fix: " + fix[:300])
    if answer.documented:
        lines.append("\ndocumented, not reproduced here:")
        for _, _, row, hits in answer.documented[: (None if every else 3)]:
            lines.append("   - %s: %s" % (row.get("key", "?"), row.get("cause", "")))
            if row.get("fix"):
                lines.append("     fix: %s" % row["fix"])
            lines.append("     matched %s; source: %s" % (", ".join('"%s"' % h for _, h in hits), row.get("source", "")))
    if answer.kind in ("none", "possible", "documented"):
        for status in answer.errors[:3]:
            d = vocabulary.describe(status.name)
            if d["meaning"]:
                lines.append("\nmeaning of %s%s: %s" % (status.name, ' ("%s")' % d["text"] if d["text"] else "", d["meaning"]))
            elif d["text"]:
                lines.append("\n%s is what %s prints as \"%s\" (no header says more)" % (status.name, d["api"], d["text"]))
    if not answer.statuses and not answer.candidates and not answer.documented:
        lines.append("nothing recognised: no status name, number, library text or recorded message of this corpus")
    return "\n".join(lines)


def _size(value):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= size:
            return "%.2f %s" % (value / size, unit)
    return "%d B" % value


def as_json(answer, corpus, every=False):
    def one(c):
        return {"case": c.case, "family": corpus.family.get(c.case, ""), "confidence": c.confidence, "score": c.score,
                "aftermath": c.aftermath, "evidence": c.best_reasons(6), "title": _title(corpus, c.case),
                "fix": _fix(corpus, c.case), "real_world_reports": c.real_world, "tied": c.case in answer.ties}
    return {
        "input": answer.text, "answer": answer.kind, "exit": answer.exit_code,
        "printed_by": answer.wrappers, "why_not_one": answer.why_not_one, "recognised": [s.as_json() for s in answer.statuses],
        "meanings": {s.name: corpus.vocabulary.describe(s.name) for s in answer.errors},
        "parameter": {"routine": answer.parameter[0], "number": answer.parameter[1],
                      "names": sorted({p for _, p in answer.parameter[2]}),
                      "functions": sorted({f for f, _ in answer.parameter[2]})} if answer.parameter else None,
        "frameworks": [{"id": e["id"], "framework": e["framework"], "wraps_status": e.get("wraps_status"),
                        "cause": e.get("cause_key"), "meaning": e.get("meaning"), "source": e.get("source")}
                       for e in answer.frameworks],
        "calls": answer.calls, "versions": answer.versions, "narrowed_to": answer.wanted, "context": answer.context,
        "memory": {"bytes": answer.memory[0], "says": answer.memory[1]} if answer.memory else None,
        # the answers: distinct causes, best first, each with the cases that reproduce it
        "answers": [{"cause": a.key, "sentence": a.sentence, "confidence": a.confidence, "score": a.score,
                     "cases": [one(c) for c in (a.cases if every else a.cases[:5])]}
                    for a in (answer.answers if every else answer.answers[:3])],
        "cases": [one(c) for c in (answer.candidates if every else answer.candidates[:3])],
        "ties": answer.ties,
        # the real reports whose cause each case is ("real_world_reports" of a case) order the ties, out of these
        "real_world_reports": answer.real_world_total,
        "ties_ordered_by_real_world_reports": answer.tie_ordered,
        "documented": [{"key": row.get("key"), "cause": row.get("cause"), "fix": row.get("fix"), "source": row.get("source"),
                        "matched": [h for _, h in hits]} for _, _, row, hits in answer.documented],
    }


def main(argv=None):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL) if hasattr(signal, "SIGPIPE") else None
    parser = argparse.ArgumentParser(
        prog="cuda-atlas explain", description="Which case of the corpus reproduces an error message, and how sure that is.",
        epilog="Exit status: 0 answered (the cause, possible causes, or a documented cause); 1 nothing matches "
               "(what the status means is printed); 2 usage.", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("text", help="the error: a line, a whole traceback, a status name or number; - reads standard input")
    parser.add_argument("results", nargs="*", help="results files or folders to read instead of the dataset (results not "
                        "merged yet: read afresh, slower)")
    parser.add_argument("--all", action="store_true", help="every case with any evidence, and more evidence per case")
    parser.add_argument("--json", action="store_true", help="machine-readable answer")
    parser.add_argument("--cuda", help="your CUDA runtime version (12.4): only evidence that holds there")
    parser.add_argument("--driver", help="your driver version (535 or 535.104.05)")
    parser.add_argument("--gpu", help="your GPU (part of its name: H100, A100, RTX 4090)")
    parser.add_argument("--top", type=int, default=3, help="how many cases to show")
    parser.add_argument("--report", help="where the built report is, to link each case's page")
    parser.add_argument("--dataset", help="the compiled dataset to read (default: cuda-atlas data where)")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return 2 if stop.code else 0
    text = sys.stdin.buffer.read().decode("utf-8", "replace") if args.text == "-" and hasattr(sys.stdin, "buffer") else \
        sys.stdin.read() if args.text == "-" else args.text
    if not text.strip():
        print("explain: empty input (give the error, or - to read it from standard input)", file=sys.stderr)
        return 2
    if args.results:
        corpus = Corpus(args.root, list(expand(args.results)))
    else:
        try:
            corpus = open_dataset(args.dataset, args.root).corpus()
        except RuntimeError as error:
            print("explain: %s" % error, file=sys.stderr)
            return 2
    for problem in corpus.problems:
        if getattr(problem, "scope", "file") != "superseded":    # a file a newer one replaces: nothing is missing
            print("left out %s: %s" % tuple(problem), file=sys.stderr)
    wanted = {k: v for k, v in (("cudart", args.cuda), ("driver", args.driver), ("gpu", args.gpu)) if v}
    answer = explain(text, corpus, wanted)
    if args.json:
        print(json.dumps(as_json(answer, corpus, args.all), indent=1))
    else:
        out = format_text(answer, corpus, args.top, args.all)
        if args.report:
            out += "\n" + "\n".join("atlas: %s/case/%s.html" % (args.report, c.case) for c in answer.candidates[:args.top])
        print(out)
    return answer.exit_code


if __name__ == "__main__":
    sys.exit(main())
