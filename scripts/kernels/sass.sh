#!/usr/bin/env bash
# Compiles the kernels for sm_90 with NVRTC on this machine (no GPU needed) and
# prints each kernel's registers/spills and instruction mix, from cuobjdump.
# Needs libnvrtc.so.13 and cuobjdump: set NV=/path with lib/ and bin/ inside
# (e.g. the pip packages nvidia-cuda-nvrtc and nvidia-cuda-cuobjdump).
set -euo pipefail
cd "$(dirname "$0")/../.."
NV=${NV:-/tmp/nv/nvidia/cu13}
out=${1:-/tmp/skinny-sass}
mkdir -p "$out"
LD_LIBRARY_PATH=$NV/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} cargo run -q --example compile_kernels -p skinny-cuda -- "$out" >/dev/null
for f in "$out"/*.cubin; do
    "$NV/bin/cuobjdump" --dump-resource-usage "$f" | grep -E "Function|REG" | paste - - | sed -E 's/Resource usage://; s/ +/ /g' | cut -c1-120
    for fn in $("$NV/bin/cuobjdump" -sass "$f" | grep -oE 'Function : [a-z0-9_]+' | awk '{print $3}'); do
        "$NV/bin/cuobjdump" -sass -fun "$fn" "$f" >"$out/$fn.sass"
        s="$out/$fn.sass"
        printf '%-16s instr %5d LOP3 %5d SHF %4d PRMT %4d MOV %4d LDC %3d ULDC %3d LDL/STL %d\n' "$fn" \
            "$(grep -cE '^\s+/\*[0-9a-f]{4,}\*/' "$s")" "$(grep -c LOP3 "$s")" "$(grep -c SHF "$s")" "$(grep -c PRMT "$s")" \
            "$(grep -cE 'MOV' "$s")" "$(grep -cE ' LDC' "$s")" "$(grep -c ULDC "$s")" "$(grep -cE 'LDL|STL' "$s")"
    done
done
