"""Shared fixtures: a tiny Korean voice pack built in a temp dir (independent of the real one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.packs import VoicePack, load_pack

# Sino-Korean seat numbers; 4, 6, 7, 8 also in native Korean, which espeak-ng and the Korean
# model agree on better (VOICE-LAB.md).
TINY_KO_PACK = """
[pack]
language = "ko"
name = "Korean (test)"
voice = "ko"

[numbers]
1 = "일"
2 = "이"
3 = "삼"
4 = ["사", "넷"]
5 = "오"
6 = ["육", "여섯"]
7 = ["칠", "일곱"]
8 = ["팔", "여덟"]
9 = "구"
10 = "십"
11 = "십일"
12 = "십이"

[words]
nobody = ["아무도"]
yes = ["네"]
no = ["아니요"]
repeat = ["다시"]
pause = ["멈춤"]
more_time = ["시간 더"]
vote_now = ["투표"]

[lines]
"prompt.repeat" = "다시 말해 주세요."
"prompt.use_keypad" = "키패드를 사용하세요."
"vote.confirm" = "{seat}번. 취소하려면 아니요라고 말하세요."
"vote.cancelled" = "취소되었습니다."
"""


def write_tiny_ko_pack(root: Path) -> Path:
    (root / "ko").mkdir(parents=True, exist_ok=True)
    (root / "ko" / "pack.toml").write_text(TINY_KO_PACK, encoding="utf-8")
    return root


@pytest.fixture
def ko_pack(tmp_path: Path) -> VoicePack:
    return load_pack("ko", write_tiny_ko_pack(tmp_path / "voices"))


@pytest.fixture(scope="session")
def en_pack() -> VoicePack:
    return load_pack("en")
