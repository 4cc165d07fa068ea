// The Docker sandbox's defaults where OpenClaw has one: the same image name, so an image built for
// OpenClaw (scripts/sandbox-setup.sh) serves Pincer too, and `pincer sandbox setup` builds it.

/** Image used when `sandbox.docker.image` is not set (OpenClaw's default name). */
export const DEFAULT_DOCKER_IMAGE = "openclaw-sandbox:bookworm-slim";
