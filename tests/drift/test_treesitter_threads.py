"""Test files are split on several threads at once (`gate backtest --jobs N`,
`gate lab`, `gate loop run`): each thread splits with its own tree-sitter
parser, so concurrent splits give the single-threaded units and never crash
the process (one shared parser segfaulted within a few hundred parses)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import sys, threading
    from gate.drift import units_for

    def go(n):
        return "package x\\n\\nimport \\"testing\\"\\n\\n" + "".join(
            f"func TestA{i}(t *testing.T) {{\\n\\tif {i} != {i} {{ t.Fatal(\\"x\\") }}\\n}}\\n\\n"
            for i in range(n))

    def js(n):
        return "".join(f"test('a{i}', () => {{ expect({i}).toBe({i}); }});\\n" for i in range(n))

    FILES = [("x_test.go", go(300)), ("a.test.js", js(300)), ("b.test.ts", js(200)),
             ("c.test.tsx", js(100)), ("y_test.go", go(50))]
    want = [repr(units_for(name, text)) for name, text in FILES]
    differed = []

    def work(shift):
        for round in range(40):
            for i in range(len(FILES)):
                name, text = FILES[(i + shift + round) % len(FILES)]
                if repr(units_for(name, text)) != want[FILES.index((name, text))]:
                    differed.append(name)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("differed", len(differed))
    """
)


def test_concurrent_splits_match_and_do_not_crash() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.strip() == "differed 0"
