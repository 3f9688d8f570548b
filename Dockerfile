# The confbus config server as a container (docs/deploy.md). Build from the repository root:
#   docker build -t confbus:0.1.0 .
# e2e/docs/deploy-recipes.test.ts runs this file's command, environment and health check against a real server.

# 1. Build: compile the workspaces and pack the packages the `confbus` command needs, as npm would publish them.
FROM node:20.19-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund \
 && mkdir /packs \
 && npm pack --pack-destination /packs -w packages/core -w packages/bus -w packages/console -w packages/server -w packages/client -w packages/contracts -w packages/cli

# 2. Run: the packed packages installed in /opt/confbus (production dependencies only), git for the mirrors.
FROM node:20.19-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git openssh-client ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /packs /tmp/packs
WORKDIR /opt/confbus
RUN npm init -y >/dev/null \
 && npm install --omit=dev --no-audit --no-fund /tmp/packs/*.tgz \
 && rm -rf /tmp/packs \
 && mkdir -p /var/lib/confbus \
 && chown node:node /var/lib/confbus
ENV NODE_ENV=production
ENV SPRING_CLOUD_CONFIG_SERVER_GIT_BASEDIR=/var/lib/confbus/mirror
ENV CONFBUS_LOGGING_FORMAT=json
VOLUME /var/lib/confbus
USER node
EXPOSE 8888
# Node runs the command's script itself: it receives SIGTERM directly (not through npx or a shell) and shuts down
# within its budget (requests first, then the bus and the mirrors). --no-allocation-site-pretenuring is the
# server's Node flag (docs/deploy.md, "Node flags").
ENTRYPOINT ["node", "--no-allocation-site-pretenuring", "/opt/confbus/node_modules/confbus/bin/confbus.js"]
CMD ["server"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8888/actuator/health/liveness').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
