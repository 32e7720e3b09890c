# syntax=docker/dockerfile:1
#
# brandops: one image with the API server, the built frontend and the tenant
# files.  Build:  docker build -t brandops .
# Run:    docker run -p 8080:8080 \
#           -e DATABASE_URL=postgres://user:pass@db:5432/brandops \
#           -e COOKIE_SECRET=<64+ hex chars> \
#           -e DB_ROLE_SECRET=<64+ hex chars> \
#           -e PUBLIC_URL=https://brandops.example.com \
#           brandops
#         docker run ... brandops setup     # migrate + seed demo data once
#
# PUBLIC_URL must be the origin browsers use: the server rejects cross-origin
# unsafe requests, and its default (http://$HOST:$PORT) would be 0.0.0.0 here.

# --- 1. frontend -------------------------------------------------------------
FROM node:20-bookworm-slim AS frontend
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    PUPPETEER_SKIP_DOWNLOAD=1 \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
# package-lock.json is written by npm 11; use the same major version.
RUN npm install -g npm@11
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci
# The frontend generates/checks its API types from ../openapi.yaml.
COPY openapi.yaml /src/openapi.yaml
COPY frontend/ ./
RUN npm run build

# --- 2. backend --------------------------------------------------------------
FROM rust:1.95-bookworm AS backend
# Migrations are embedded at compile time from ../migrations (sqlx::migrate!),
# so keep the repository layout: /src/backend, /src/migrations, /src/tenants.
WORKDIR /src
COPY migrations/ migrations/
COPY tenants/ tenants/
COPY backend/ backend/
WORKDIR /src/backend
ENV SQLX_OFFLINE=true \
    CARGO_TERM_COLOR=never
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/usr/local/cargo/git \
    --mount=type=cache,target=/src/backend/target \
    cargo build --release --locked --bin brandops \
 && install -D -m 0755 target/release/brandops /out/brandops

# --- 3. runtime --------------------------------------------------------------
FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 brandops \
 && useradd --system --uid 10001 --gid brandops --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin brandops \
 && mkdir -p /app/data && chown brandops:brandops /app/data
WORKDIR /app
COPY --from=backend /out/brandops /app/brandops
COPY --from=frontend /src/frontend/dist /app/frontend/dist
COPY tenants/ /app/tenants/
ENV FRONTEND_DIR=/app/frontend/dist \
    TENANTS_DIR=/app/tenants \
    DATA_DIR=/app/data \
    HOST=0.0.0.0 \
    PORT=8080 \
    PUBLIC_URL=http://localhost:8080
USER 10001:10001
# Images and label outputs, unless S3_BUCKET is set: mount a volume here.
VOLUME /app/data
EXPOSE 8080
# No curl in the image: bash's /dev/tcp (bash, head and grep are part of
# Debian's essential set) asks /api/ready for a 200.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8080} && printf 'GET /api/ready HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["/app/brandops"]
CMD ["serve"]
