# A test runner small enough for MicroPython: imports each module, calls every test_*
# function, prints one PASS/FAIL line per test and a summary. tests/mpvm.py parses it.
import sys


def run(modules):
    passed = failed = 0
    for name in modules:
        try:
            mod = __import__(name)
        except Exception as e:
            print("FAIL %s.<import> %s: %s" % (name, type(e).__name__, e))
            failed += 1
            continue
        for attr in sorted(dir(mod)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(mod, attr)
            try:
                fn()
                passed += 1
                print("PASS %s.%s" % (name, attr))
            except Exception as e:
                failed += 1
                print("FAIL %s.%s %s: %s" % (name, attr, type(e).__name__, e))
                sys.print_exception(e)
    print("SUMMARY passed=%d failed=%d" % (passed, failed))
    return failed
