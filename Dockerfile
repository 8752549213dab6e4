# bwc-emu in a container: a device (or a fleet, --devices N) from port 8080 up.
#   docker build -t bwc-emu .
#   docker run --rm -p 8080:8080 bwc-emu
#   docker run --rm -p 8080:8080 bwc-emu --scenario motion     (still on 0.0.0.0:8080)
#   docker run --rm -p 8080:8080 -e BWC_EMU_SCENARIO=motion bwc-emu
# The image's defaults are BWC_EMU_* variables, not CMD arguments: arguments given to
# `docker run` replace CMD, the variables stay (a flag still wins over them).
# The control API (/_emu) answers loopback only unless --control-token is given; the
# health check runs inside the container, so it is loopback.

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY web ./web
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production
ENV BWC_EMU_HOST=0.0.0.0
ENV BWC_EMU_PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY scenarios ./scenarios
COPY schema ./schema
COPY docs ./docs
COPY LICENSE README.md ./
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.BWC_EMU_PORT + '/_emu/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/bwc-emu"]
