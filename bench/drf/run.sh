#!/bin/sh
# The DRF tutorial's snippets service for `npm run bench:drf` (docs/benchmarks.md, "Against the Django original"):
# a fresh SQLite database in DRF_DATA_DIR, a user DRF_USER/DRF_PASSWORD and its token (written to DRF_DATA_DIR/token),
# then gunicorn on 127.0.0.1:PORT with DRF_WORKERS sync workers (2, the bench machine's cores, as a plain deployment
# would run it). Debian's packages: apt-get install -y python3-django python3-djangorestframework python3-pygments gunicorn
#   usage: bench/drf/run.sh [PORT]
set -eu
cd "$(dirname "$0")"
PORT=${1:-8000}
PYTHON=${DRF_PYTHON:-/usr/bin/python3}
export DRF_DATA_DIR="${DRF_DATA_DIR:-$(mktemp -d /tmp/drf-bench-XXXXXX)}"
export DRF_USER="${DRF_USER:-bench}" DRF_PASSWORD="${DRF_PASSWORD:-benchpass}"
mkdir -p "$DRF_DATA_DIR"
rm -f "$DRF_DATA_DIR/db.sqlite3"
"$PYTHON" manage.py migrate --noinput >/dev/null
"$PYTHON" manage.py shell -c '
import os
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
user = User.objects.create_user(os.environ["DRF_USER"], password=os.environ["DRF_PASSWORD"])
token, _ = Token.objects.get_or_create(user=user)
with open(os.path.join(os.environ["DRF_DATA_DIR"], "token"), "w") as f:
    f.write(token.key + "\n")
'
echo "drf: database $DRF_DATA_DIR/db.sqlite3, user $DRF_USER, token in $DRF_DATA_DIR/token" >&2
# No access log: ours is benched with LOG_LEVEL=warn.
exec "$PYTHON" -m gunicorn --workers "${DRF_WORKERS:-2}" --worker-class sync --bind "127.0.0.1:$PORT" wsgi:application
