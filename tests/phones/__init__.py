"""The phones' tests need the phones extra (the web server, the sealing, the QR codes). Without it
each of their files is skipped, with the reason, rather than failing to import."""

import pytest

for _module in ("aiohttp", "nacl", "qrcode"):
    pytest.importorskip(_module, reason=f"the phones extra is not installed (no {_module}): scripts/setup.sh dev,phones")
