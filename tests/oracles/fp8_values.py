"""Every byte of each FP8 dtype safetensors defines, as Google's ml_dtypes
(ml_dtypes==0.5.4) decodes it: one JSON object, dtype name -> 256 float64
bit patterns as hex (NaN as "nan": its payload is no value).

    python3 fp8_values.py > tests/golden/fp8_values.json
"""
import json

import ml_dtypes
import numpy as np

TYPES = {
    "F8_E4M3": ml_dtypes.float8_e4m3fn,
    "F8_E5M2": ml_dtypes.float8_e5m2,
    "F8_E8M0": ml_dtypes.float8_e8m0fnu,
    "F8_E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "F8_E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
}

out = {}
for name, t in TYPES.items():
    values = np.arange(256, dtype=np.uint8).view(t).astype(np.float64)
    out[name] = ["nan" if np.isnan(v) else f"{np.float64(v).view(np.uint64):016x}" for v in values]
print(json.dumps(out, indent=0, sort_keys=True))
