# syntax=docker/dockerfile:1
#
# The image "go run ./tools/release" writes without Docker (docs/releasing.md), for
# those who build with Docker: a static Factbase binary, CA certificates and a
# non-root user, on scratch. tools/release's tests check that this file's final
# stage and the release image agree.
#
#   docker build -t factbase:dev .
#   docker build --build-arg VERSION=v1.2.3 --build-arg COMMIT=$(git rev-parse HEAD) \
#     --build-arg DATE=$(git show -s --format=%cI HEAD) -t factbase:v1.2.3 .
#   docker buildx build --platform linux/amd64,linux/arm64 -t factbase:dev .

FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
ARG TARGETOS TARGETARCH
ARG VERSION=dev COMMIT= DATE=
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO_ENABLED=0: a static binary (the SQLite driver is pure Go). The -X flags set
# what "factbase version", /healthz and /metrics report (internal/version).
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/factbase/factbase/internal/version.version=${VERSION} \
        -X github.com/factbase/factbase/internal/version.commit=${COMMIT} \
        -X github.com/factbase/factbase/internal/version.date=${DATE}" \
      -o /rootfs/usr/local/bin/factbase ./cmd/factbase
COPY <<EOF /rootfs/etc/passwd
root:x:0:0:root:/root:/sbin/nologin
factbase:x:65532:65532:factbase:/var/lib/factbase:/sbin/nologin
EOF
COPY <<EOF /rootfs/etc/group
root:x:0:
factbase:x:65532:
EOF
COPY <<EOF /rootfs/etc/nsswitch.conf
hosts: files dns
EOF
RUN mkdir -p /rootfs/etc/ssl/certs /rootfs/tmp /rootfs/var/lib/factbase \
 && cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
 && chmod 1777 /rootfs/tmp \
 && chown 65532:65532 /rootfs/var/lib/factbase && chmod 700 /rootfs/var/lib/factbase

FROM scratch
# COPY --from keeps the owners set above (the data directory is the user's).
COPY --from=build /rootfs/ /
USER 65532:65532
ENV PATH=/usr/local/bin HOME=/var/lib/factbase FACTBASE_DB=/var/lib/factbase/factbase.db
WORKDIR /var/lib/factbase
VOLUME /var/lib/factbase
EXPOSE 7411/tcp
ENTRYPOINT ["/usr/local/bin/factbase"]
CMD ["serve", "--addr", "0.0.0.0:7411"]
