"""The installed llama.cpp build suits this CPU: it holds no instruction set the CPU lacks, and
none of the code paths known to crash (AVX-512 and AMX kernels; docs/local-model.md)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

from app.providers.local import LocalProvider
from tests.helpers.prerequisites import needs

pytestmark = pytest.mark.slow

# llama.cpp's name for a feature in its system info -> the flag /proc/cpuinfo shows for it
CPU_FLAGS = {
    "SSE3": "pni",
    "SSSE3": "ssse3",
    "AVX": "avx",
    "AVX2": "avx2",
    "F16C": "f16c",
    "FMA": "fma",
    "BMI2": "bmi2",
    "AVX_VNNI": "avx_vnni",
    "AVX512": "avx512f",
    "AVX512_VBMI": "avx512vbmi",
    "AVX512_VNNI": "avx512_vnni",
    "AVX512_BF16": "avx512_bf16",
    "AMX_INT8": "amx_int8",
}
NEVER = ("AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16", "AMX_INT8")


def compiled_features() -> set[str]:
    """As the built-in model's process reports them when it is ready (llama.cpp's system info).

    llama_cpp is not imported here: it runs in that process only."""
    provider = LocalProvider(threads=1)
    try:
        process = provider.worker.start()
        info = str(process.info["system_info"])
    finally:
        provider.worker.close()
    assert "CPU" in info, info
    return {name for name, on in re.findall(r"(\w+) = (\d)", info) if on == "1"}


def cpu_flags() -> set[str]:
    text = Path("/proc/cpuinfo").read_text()
    return set(re.search(r"^flags\s*:(.*)$", text, re.M).group(1).split())  # type: ignore[union-attr]


needs_x86_linux = pytest.mark.skipif(
    not Path("/proc/cpuinfo").exists() or "flags" not in Path("/proc/cpuinfo").read_text(),
    reason="reads the CPU's flags from /proc/cpuinfo (x86 Linux)",
)


@needs_x86_linux
def test_every_compiled_instruction_set_is_one_this_cpu_has() -> None:
    features = compiled_features()
    flags = cpu_flags()
    missing = {f for f in features if f in CPU_FLAGS and CPU_FLAGS[f] not in flags}
    assert not missing, f"llama.cpp was built for instructions this CPU lacks: {missing}"
    assert not features & set(NEVER), f"built with AVX-512/AMX kernels: {features & set(NEVER)}"


@needs_x86_linux
@needs("objdump", why="needs objdump (binutils; scripts/check installs it)")
def test_the_cpu_library_uses_no_avx512_or_amx_register() -> None:
    """The system info lists what was asked for; the machine code is the proof."""
    spec = importlib.util.find_spec("llama_cpp")
    assert spec is not None and spec.submodule_search_locations
    package = Path(next(iter(spec.submodule_search_locations)))
    libs = sorted((package / "lib").glob("libggml-cpu*.so*"))
    assert libs, "llama_cpp ships no libggml-cpu library"
    for lib in libs:
        if lib.is_symlink():
            continue
        dump = subprocess.run(
            ["objdump", "-d", "--no-show-raw-insn", str(lib)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "%zmm" not in dump, f"{lib.name} holds AVX-512 code"
        assert "%tmm" not in dump and "tdpb" not in dump, f"{lib.name} holds AMX code"
