#!/bin/sh
# Pushes an image archive to a registry without changing its digest (skopeo copies the blobs as
# they are), authenticated with the gcloud account of the machine (Cloud Build's service account).
#   usage: images/bin/push-image.sh IMAGE.tar REGISTRY/REPOSITORY/NAME[:TAG]
set -eu
archive=${1:?usage: push-image.sh IMAGE.tar DESTINATION}
dest=${2:?DESTINATION}
if ! command -v skopeo >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends skopeo
fi
token=$(gcloud auth print-access-token)
skopeo copy --quiet --dest-creds "oauth2accesstoken:$token" "oci-archive:$archive" "docker://$dest"
echo "pushed $dest@$(cat "$archive.digest")"
