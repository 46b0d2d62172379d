# SPDX-License-Identifier: GPL-2.0
"""Parsers and renderers for dumps of /sys/kernel/debug/bootstamp/."""
