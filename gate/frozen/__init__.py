"""Frozen tests: the base's tests judge the pull request's code.

Reading test changes (`test_drift`) cannot be sound: a change can bend what
an old test checks from code the rule does not inspect.  The defence that
needs no list of tricks is to run the tests the maintainer already trusts
against the PR's code, as SWE-bench's harness resets the test files before
it scores a patch.  `gate frozen-tests -- COMMAND` does that:

    plan.py      which paths are frozen (the rubric's test globs, every file
                 a test runner reads, the test part of shared files), and
                 what the frozen tree holds there: the base's bytes, nothing
                 where the base has nothing, a shared file spliced
    tree.py      a temporary worktree of HEAD with the plan applied and the
                 checkout's installed dependencies linked in; removed after
                 the run, also after Ctrl-C or a killed COMMAND
    reports.py   per-case results from the runners' own reports (pytest's
                 JUnit XML, `go test -json`, node's test runner events,
                 unittest's summary), asked for through each runner's
                 documented switches
    attribute.py which failures a static flag explains (excused), which
                 fail in a plain run of the head too, and which are red
    run.py       the whole run: `frozen_run`, and its `Outcome`

The command is `gate/commands/frozen_tests.py`; the lab's loop runs an
attempt's tests through `frozen_run` with `gate loop run --frozen-tests`.
"""
