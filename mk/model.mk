# SPDX-License-Identifier: MIT
# The reference model of the header's rules (docs/RULES.md) against the real library: a Hypothesis
# state machine (Tests/model/test_model.py) and the explicit regression
# sequences (Tests/model/test_regressions.py). See Tests/model/README.md.
#
#   make test-model                              the ci profile (2,000 sequences)
#   IDLELOCK_MODEL_PROFILE=long make test-model  the long profile

.PHONY: test-model

test-model: test-deps lib
	@IDLELOCK_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python:scripts \
	    $(PYTHON) -m pytest $(PYTEST_QUIET) -p pytest_counts Tests/model

TEST_SUITES += test-model
