"""Fault-injection suite: a 3-broker cluster under load, randomised faults, then checks.

`python -m tests.chaos --faults 100` (make chaos) is the long run; tests/test_chaos.py the short one.
"""
