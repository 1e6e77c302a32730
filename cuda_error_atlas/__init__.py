"""cuda-error-atlas: what CUDA and cuBLAS really return for each mistake,
observed on real GPUs, and explain, which maps a pasted error to its cause.

    import cuda_error_atlas as atlas
    atlas.explain("CUDA error: an illegal memory access was encountered")
    atlas.status("cudaErrorIllegalAddress")
    atlas.sticky("cudaErrorIllegalAddress")

Each reads only the compiled dataset (atlas.sqlite), shipped with the package.
"""
__version__ = "0.3.0"


def explain(text, **wanted):
    """The ranked answers for an error message, as data (see api.explain)."""
    from . import api
    return api.explain(text, **wanted)


def status(name_or_number):
    """What a status means and which mistakes produce it (see api.status)."""
    from . import api
    return api.status(name_or_number)


def sticky(name_or_number):
    """Whether a status left the context usable, from the stickiness table (see api.sticky)."""
    from . import api
    return api.sticky(name_or_number)
