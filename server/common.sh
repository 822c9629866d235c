# Sourced by server/payara/lastcall-payara.sh and server/wildfly/lastcall-wildfly.sh: the
# settings both read the same way (see either script's header).
# LC_ENV_FILE may name several files, separated by ':'; a later file overrides an earlier one
if [ -n "${LC_ENV_FILE:-}" ]; then
  set -a
  IFS=: read -r -a lc_env_files <<<"$LC_ENV_FILE"
  for lc_env_file in "${lc_env_files[@]}"; do
    # shellcheck disable=SC1090
    . "$lc_env_file"
  done
  set +a
fi
: "${LC_RUNTIME:?LC_RUNTIME must name the runtime directory}"
LC_DOMAIN=${LC_DOMAIN:-lastcall}
LC_PORTBASE=${LC_PORTBASE:-8000}
LC_DB=${LC_DB:-h2}
case "$LC_DB" in
  h2|postgres|postgresql|pg) ;;
  *) echo "[$LC_DOMAIN] ERROR: LC_DB must be h2 or postgres, not '$LC_DB'" >&2; exit 1 ;;
esac
# every server on one ledger needs its own instance id; a restarted one keeps it, so at startup it
# recognizes (and closes) the handoffs its previous incarnation left behind
export LASTCALL_INSTANCE_ID=${LASTCALL_INSTANCE_ID:-$(hostname)-$LC_PORTBASE}
