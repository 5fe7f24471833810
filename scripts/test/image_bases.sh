# image_bases.sh — sourced by image_test.sh. Podman without a Docker engine or a registry
# login, and local stand-ins for the Dockerfiles' public base images, cached under
# ~/.cache/kokoro/podman:
#
#   RUNTIME_IMAGE  debian:bookworm-slim   → Debian bookworm from debootstrap (minbase), trimmed
#                                           the way the slim image is (no docs, man pages or
#                                           locales; no apt lists or package cache)
#   GO_IMAGE       golang:1.26-bookworm   → that, plus ca-certificates, gcc and libc6-dev from
#                                           Debian and the Go release go.mod names, fetched as
#                                           the module golang.org/toolchain (what GOTOOLCHAIN=auto
#                                           fetches; the host's go downloads it and checks it
#                                           against the Go checksum database)
#
# Both also trust what this host trusts (its CA bundle, as a local CA that ca-certificates adds
# when a build installs it), so builds work behind a TLS-inspecting proxy as the host does. Each
# image is tagged with a hash of this file, that bundle (and the Go version), so a change in any
# of them builds a new one; an unchanged one is reused. Needs root (debootstrap, chroot builds),
# podman and debootstrap; image_test.sh installs them.

# P runs podman on the project's own storage. TMPDIR places buildah's RUN --mount=type=cache
# directories (the downloads and the Go build cache) there too, so they persist between runs.
# No cache mount target in the Dockerfiles may be a prefix of this path (/root/.cache/kokoro
# would be): buildah 1.28 then empties the image's whole filesystem while unmounting.
kokoro_podman_dir=${KOKORO_CACHE:-$HOME/.cache/kokoro}/podman
P() {
	mkdir -p "$kokoro_podman_dir/tmp" "/tmp/kokoro-podman-run-$(id -u)"
	TMPDIR=$kokoro_podman_dir/tmp podman --root "$kokoro_podman_dir/storage" \
		--runroot "/tmp/kokoro-podman-run-$(id -u)" --storage-driver overlay "$@"
}

# image_bases sets RUNTIME_IMAGE and GO_IMAGE to local images, building what is missing.
image_bases() {
	local self key gover dir tmp hostca=/etc/ssl/certs/ca-certificates.crt
	self=$(cat "${BASH_SOURCE[0]}" "$hostca" 2>/dev/null | sha256sum | cut -c1-12)
	RUNTIME_IMAGE=localhost/kokoro-base/bookworm-slim:$self
	if ! P image exists "$RUNTIME_IMAGE"; then
		dir="$kokoro_podman_dir/rootfs"
		mkdir -p "$dir"
		if [[ ! -f "$dir/bookworm-$self.tar" ]]; then
			echo "image_bases: debootstrap bookworm (minbase)" >&2
			tmp=$(mktemp -d "$dir/debootstrap.XXXXXX")
			debootstrap --variant=minbase bookworm "$tmp/root" >"$tmp/log" 2>&1 ||
				{ tail -20 "$tmp/log" >&2; rm -rf "$tmp"; return 1; }
			slim_rootfs "$tmp/root"
			if [[ -f "$hostca" ]]; then
				install -D -m 0644 "$hostca" "$tmp/root/usr/local/share/ca-certificates/host-trust.crt"
			fi
			tar -C "$tmp/root" --numeric-owner -cf "$tmp/root.tar" .
			mv "$tmp/root.tar" "$dir/bookworm-$self.tar"
			rm -rf "$tmp"
		fi
		P import --quiet --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
			--change 'CMD ["bash"]' "$dir/bookworm-$self.tar" "$RUNTIME_IMAGE" >/dev/null
	fi

	gover=$(awk '$1 == "go" { print $2; exit }' go.mod)
	[[ -n "$gover" ]] || { echo "image_bases: no go line in go.mod" >&2; return 1; }
	key=$(printf '%s %s' "$self" "$gover" | sha256sum | cut -c1-12)
	GO_IMAGE=localhost/kokoro-base/golang:$gover-$key
	if ! P image exists "$GO_IMAGE"; then
		echo "image_bases: Go $gover image" >&2
		tmp=$(mktemp -d)
		local goroot
		goroot=$(cd "$tmp" && GOFLAGS= go mod download -json "golang.org/toolchain@v0.0.1-go$gover.linux-amd64" |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
		# The module cache keeps files read-only and without execute bits; a GOROOT needs both.
		cp -r "$goroot" "$tmp/go"
		chmod -R u+w "$tmp/go"
		chmod +x "$tmp/go/bin/"* "$tmp/go/pkg/tool/linux_amd64/"*
		cat >"$tmp/Containerfile" <<-EOF
			FROM $RUNTIME_IMAGE
			RUN apt-get update \\
			 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates gcc libc6-dev \\
			 && rm -rf /var/lib/apt/lists/*
			COPY go /usr/local/go
			ENV GOLANG_VERSION=$gover GOTOOLCHAIN=local GOPATH=/go \\
			    PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
			WORKDIR /go
		EOF
		P build --quiet --isolation=chroot --network=host -t "$GO_IMAGE" "$tmp" >/dev/null ||
			{ rm -rf "$tmp"; return 1; }
		rm -rf "$tmp"
	fi
	# Older bases become dangling, for image_test.sh's prune; their root filesystems go now.
	local ref
	while read -r ref; do
		[[ "$ref" == "$RUNTIME_IMAGE" || "$ref" == "$GO_IMAGE" ]] || P untag "$ref" >/dev/null || true
	done < <(P images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/kokoro-base/' || true)
	find "$kokoro_podman_dir/rootfs" -name 'bookworm-*.tar' ! -name "bookworm-$self.tar" -delete
}

# slim_rootfs trims a debootstrapped tree as the slim image is trimmed, and keeps it so: dpkg
# leaves out documentation and translations, apt keeps no package cache.
slim_rootfs() {
	local r=$1
	cat >"$r/etc/dpkg/dpkg.cfg.d/kokoro-slim" <<-'EOF'
		path-exclude /usr/share/doc/*
		path-include /usr/share/doc/*/copyright
		path-exclude /usr/share/man/*
		path-exclude /usr/share/info/*
		path-exclude /usr/share/locale/*
		path-exclude /usr/share/lintian/*
	EOF
	cat >"$r/etc/apt/apt.conf.d/kokoro-slim" <<-'EOF'
		Dir::Cache::pkgcache "";
		Dir::Cache::srcpkgcache "";
		DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb || true"; };
	EOF
	find "$r/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
	rm -rf "$r/usr/share/man/"* "$r/usr/share/info/"* "$r/usr/share/locale/"* \
		"$r/var/cache/apt/"*.bin "$r/var/cache/apt/archives/"*.deb "$r/var/lib/apt/lists/"*
}
