"""The pytest plugin, run on small test files with pytester (each in a pytest subprocess)."""
import os

import pytest

from conftest import PYTHON_DIR, inner_pytest



def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Runs pytest in a subprocess on the files made, with the plugin as pip would install it."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        return inner_pytest(pytester, monkeypatch, *args)


def test_the_fixture_starts_resets_and_names_segments(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_one="""
        def test_first(bwc_emu):
            bwc_emu.set_flags(graphics_udvd=True)
            assert bwc_emu.report(segments="current").segments[-1]["name"] == "test_one.py::test_first"

        def test_second(bwc_emu, bwc_emu_session):
            assert bwc_emu is bwc_emu_session
            assert bwc_emu.flag("graphics_udvd") is False
            assert bwc_emu.report(segments="current").segments[-1]["name"] == "test_one.py::test_second"
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=2)


def test_a_failed_test_gets_the_report_of_its_segment(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_fails="""
        import websocket

        def test_reuses_a_token(bwc_emu):
            token = bwc_emu.device.session_token()
            websocket.create_connection(bwc_emu.device.event_stream_url(token)).close()
            try:
                websocket.create_connection(bwc_emu.device.event_stream_url(token))
            except Exception:
                pass
            assert False, "the app failed"

        def test_fails_clean(bwc_emu):
            assert False
        """
    )
    result = run(pytester)
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*- bwc-emu report -*",
        "1 error(s), 0 warning(s), 0 info(s), 0 broken expectation(s) in segment 'test_fails.py::test_reuses_a_token'",
        "[[]error[]] token-reused: *",
        "*- bwc-emu report -*",
        "0 error(s), * in segment 'test_fails.py::test_fails_clean'",
    ])


def test_ini_settings_reach_the_emulator(pytester: pytest.Pytester):
    pytester.makeini(
        """
        [pytest]
        bwc_emu_scenario = io-port
        bwc_emu_args = --auth none
        bwc_emu_devices = 2
        """
    )
    pytester.makepyfile(
        test_ini="""
        def test_settings(bwc_emu):
            assert bwc_emu.user is None and len(bwc_emu.devices) == 2
            assert bwc_emu.scenario()["name"] == "io-port"
        """
    )
    run(pytester).assert_outcomes(passed=1)


def test_command_line_options_win_over_ini(pytester: pytest.Pytester):
    pytester.makeini("[pytest]\nbwc_emu_scenario = io-port\n")
    pytester.makepyfile(
        test_cli="""
        def test_settings(bwc_emu):
            assert bwc_emu.scenario()["name"] == "motion"
            assert bwc_emu.password == "other-Pw1"
        """
    )
    result = run(pytester, "--bwc-emu-scenario", "motion", "--bwc-emu-args", "--password other-Pw1")
    result.assert_outcomes(passed=1)


def test_a_bad_command_fails_the_tests_that_use_it_only(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_bad="""
        def test_uses(bwc_emu):
            pass

        def test_does_not_use():
            pass
        """
    )
    result = run(pytester, "--bwc-emu-command", "/nonexistent/bwc-emu")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*EmulatorStartError*/nonexistent/bwc-emu*"])


def test_unused_it_starts_nothing_and_lists_its_options(pytester: pytest.Pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = run(pytester, "--bwc-emu-command", "/nonexistent/bwc-emu")
    result.assert_outcomes(passed=1)
    run(pytester, "--help").stdout.fnmatch_lines(["*--bwc-emu-command*", "*bwc_emu_scenario*"])


def test_the_readme_example(pytester: pytest.Pytester):
    with open(os.path.join(PYTHON_DIR, "README.md"), encoding="utf-8") as file:
        readme = file.read()
    example = readme.split("```python\n", 1)[1].split("```", 1)[0]
    pytester.makepyfile(test_readme=example)
    run(pytester).assert_outcomes(passed=1)
