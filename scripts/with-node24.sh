#!/usr/bin/env bash
# Runs a command with Node.js 24 first on PATH (see use-node24.sh); the npm scripts go through it.
set -euo pipefail
# shellcheck source=scripts/use-node24.sh
source "$(dirname "${BASH_SOURCE[0]}")/use-node24.sh"
exec "$@"
