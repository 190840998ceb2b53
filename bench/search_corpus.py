"""A synthetic chat corpus for bench/search.py: English, accented Latin, Japanese, Chinese,
Korean and code, words drawn with Zipf-like frequencies, and a few planted terms whose counts
are known (the rare word, the CJK words) so each query's work is realistic.

Deterministic for a seed: the same corpus every run, so a cached index can be reused.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

ENGLISH = (  # noqa: SIM905 (word lists read as text)
    "the of and to a in is that for it as was with be by on not he this are or his "
    "from at which but have an they you were her she there been one all we their has "
    "would when if so no will more can out up about into than them some could time "
    "these two may first then do any like my now over such our man me even most made "
    "after also did many before must through back years where much your way well down "
    "should because each just those people how too little state good very make world "
    "still own see men work long get here between both life being under never day "
    "same another know while last might us great old year off come since against go "
    "came right used take three model data function value error file system server "
    "request response query index table column memory thread process network cache "
    "config option version release build test package module class method object "
    "string number list array map key type return result input output user message "
    "context token window prompt reply answer question example problem solution "
    "capital capitalism capitalize capitulate captain capture weather city country "
    "river mountain travel train station airport hotel museum coffee tea breakfast "
    "dinner recipe garden kitchen history science music library database migration "
    "schema backup restore deploy pipeline cluster kernel driver battery screen "
    "keyboard mouse printer france paris germany berlin japan tokyo china beijing "
    "korea seoul london spain madrid italy rome"
).split()
LATIN = (  # noqa: SIM905 (word lists read as text)
    "café crème brûlée déjà vu naïve façade élève été où très français château garçon "
    "niño mañana año señor corazón canción información educación está también straße "
    "größe über fünf müssen schön grün märchen são não coração informação ação tiếng "
    "việt người nước đường phố ça marche c'est génial voilà résumé"
).split()
JAPANESE = (  # noqa: SIM905 (word lists read as text)
    "東京 大阪 京都 天気 晴れ 雨 雪 会議 資料 予定 明日 今日 昨日 電車 駅 仕事 会社 "
    "猫 犬 旅行 写真 料理 先生 学校 勉強 日本語 英語 質問 回答 説明 設定 問題 解決 "
    "データベース 移行 計画 サーバー エラー ファイル 東京タワー 富士山 新幹線 "
    "ラーメン 寿司 コーヒー プログラム 関数 変数 検索 結果"
).split()
JA_PARTICLES = (  # noqa: SIM905 (word lists read as text)
    "は が を に で と の も から まで"
).split()
JA_ENDINGS = ("です。", "でした。", "ます。", "ません。", "ですか\uff1f", "だと思います。")
CHINESE = (  # noqa: SIM905 (word lists read as text)
    "数据库 迁移 计划 服务器 问题 解决 方案 北京 上海 天气 晴天 下雨 会议 资料 时间 "
    "明天 今天 昨天 工作 公司 学习 中文 英文 猫 狗 旅行 照片 菜谱 老师 学校 程序 函数 "
    "变量 搜索 结果 错误 文件 配置 版本 测试 模型 用户 消息 我们 你们 他们 可以 需要 "
    "应该 已经 没有 这个 那个 什么 为什么 怎么"
).split()
ZH_GLUE = (  # noqa: SIM905 (word lists read as text)
    "的 了 在 是 和 就 都 也 很 把"
).split()
KOREAN = (  # noqa: SIM905 (word lists read as text)
    "서울 부산 날씨 맑음 비 회의 자료 일정 내일 오늘 어제 지하철 역 회사 고양이 "
    "강아지 여행 사진 요리 선생님 학교 공부 한국어 영어 질문 답변 설명 설정 문제 해결 "
    "데이터베이스 서버 오류 파일 프로그램 함수 검색 결과 대한민국"
).split()
KO_PARTICLES = (  # noqa: SIM905 (word lists read as text)
    "은 는 이 가 을 를 에서 으로 에 도 와"
).split()
KO_ENDINGS = ("입니다.", "했어요.", "해요.", "인가요?", "합니다.")
CODE_LINES = (
    "def {f}(args):\n    return {g}(args.{v})",
    "args = parser.parse_args()\nif args.{v}:\n    {f}(args)",
    "std::vector<int> {v};\n{v}.push_back({n});",
    "for (auto& item : {v}) {{ {f}(item); }}",
    "const {v} = await fetch(`/api/{g}`);",
    "SELECT {v} FROM {g} WHERE id = {n};",
    "import {g}\nprint({g}.{f}({n}))",
    "let {v}: Vec<String> = {f}().collect();",
    "{f}({v}) -> Result<(), Error>",
)
IDENTIFIERS = (  # noqa: SIM905 (word lists read as text)
    "parse_config load_data main run_query handle_request build_index open_file "
    "read_lines to_json get_user update_cache migrate_schema"
).split()

RARE = "zanzibar"
RARE_HITS = 12
PROVIDERS = (("openai", "gpt-4o"), ("anthropic", "claude-sonnet-4"), ("local", "smollm2"))
START = datetime(2024, 1, 1, tzinfo=UTC)
SPAN = timedelta(days=730)


def _zipf(words: list[str] | tuple[str, ...], rng: random.Random, k: int) -> list[str]:
    weights = [1 / (rank + 1) for rank in range(len(words))]
    return rng.choices(words, weights, k=k)


def english(rng: random.Random, n: int) -> str:
    sentences = []
    while n > 0:
        size = rng.randint(6, 18)
        words = _zipf(ENGLISH, rng, size)
        sentences.append(" ".join(words).capitalize() + rng.choice(".?!"))
        n -= size
    return " ".join(sentences)


def latin(rng: random.Random, n: int) -> str:
    words = [rng.choice(LATIN) if rng.random() < 0.4 else w for w in _zipf(ENGLISH, rng, n)]
    return " ".join(words).capitalize() + "."


def japanese(rng: random.Random, n: int) -> str:
    parts = []
    for _ in range(max(1, n // 4)):
        for word in _zipf(JAPANESE, rng, rng.randint(2, 4)):
            parts.append(word + rng.choice(JA_PARTICLES))
        parts.append(rng.choice(JAPANESE) + rng.choice(JA_ENDINGS))
    return "".join(parts)


def chinese(rng: random.Random, n: int) -> str:
    parts = []
    for _ in range(max(1, n // 5)):
        words = _zipf(CHINESE, rng, rng.randint(3, 7))
        parts.append(
            "".join(w + (rng.choice(ZH_GLUE) if rng.random() < 0.3 else "") for w in words)
        )
        parts.append(rng.choice("。\uff0c\uff1f\uff01"))
    return "".join(parts)


def korean(rng: random.Random, n: int) -> str:
    parts = []
    for _ in range(max(1, n // 4)):
        words = _zipf(KOREAN, rng, rng.randint(2, 4))
        parts.append(" ".join(w + rng.choice(KO_PARTICLES) for w in words))
        parts.append(rng.choice(KOREAN) + rng.choice(KO_ENDINGS))
    return " ".join(parts)


def code(rng: random.Random, n: int) -> str:
    lines = [english(rng, 12), "```"]
    for _ in range(max(1, n // 12)):
        template = rng.choice(CODE_LINES)
        lines.append(
            template.format(
                f=rng.choice(IDENTIFIERS),
                g=rng.choice(IDENTIFIERS),
                v=rng.choice(IDENTIFIERS),
                n=rng.randint(0, 999),
            )
        )
    lines.append("```")
    return "\n".join(lines)


LANGUAGES = ((english, 45), (latin, 10), (japanese, 12), (chinese, 10), (korean, 7), (code, 16))


@dataclass(frozen=True)
class Message:
    seq: int
    ts: str
    kind: str  # model_input or model_output
    text: str
    provider: str = ""
    model: str = ""


@dataclass(frozen=True)
class Conversation:
    id: str
    created_at: str
    messages: list[Message]


def conversations(count: int, per: int, seed: int = 7) -> Iterator[Conversation]:
    """``count`` conversations of ``per`` messages (inputs and replies taking turns), spread
    over two years, each in one language (a tenth switch to English midway)."""
    rng = random.Random(seed)
    languages, weights = zip(*LANGUAGES, strict=True)
    rare_at = set(rng.sample(range(count * per), RARE_HITS))
    for number in range(count):
        start = START + SPAN * rng.random()
        language = rng.choices(languages, weights)[0]
        provider, model = rng.choice(PROVIDERS)
        messages = []
        for seq in range(1, per + 1):
            if seq == per // 2 and rng.random() < 0.1:
                language = english
            reply = seq % 2 == 0
            text = language(rng, rng.randint(40, 160) if reply else rng.randint(4, 30))
            if number * per + seq - 1 in rare_at:
                text += f" {RARE}"
            ts = start + timedelta(minutes=seq * rng.uniform(0.5, 3))
            stamp = ts.isoformat(timespec="milliseconds").replace("+00:00", "Z")
            kind = "model_output" if reply else "model_input"
            writer = (provider, model) if reply else ("", "")
            messages.append(Message(seq, stamp, kind, text, *writer))
        yield Conversation(f"{number:026d}", messages[0].ts, messages)
