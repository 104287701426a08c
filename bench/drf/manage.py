#!/usr/bin/env python3
"""Django's command line for the tutorial's snippets service (docs/benchmarks.md, "Against the Django original")."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
