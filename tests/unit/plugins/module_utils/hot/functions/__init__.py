# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# A package, so that test module names here (test_conditions, test_base, ...)
# do not clash with the tests of the same-named files elsewhere.
