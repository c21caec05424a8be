#!/usr/bin/env python3
"""What scripts/gpu/stage.sh builds for the device machine, found from
`cargo metadata` (read on stdin), so that a test or example added, renamed or
merged into another binary needs no edit here.

  targets.py SUITES-FILE GROUP... < metadata.json

Prints the cargo arguments (-p, --features, --test, --example, --bin), one
a line; writes SUITES-FILE, one test binary a line: its group and its staged
name ("gpu lab-gpu", "cpu core-suite"); says on stderr what it left out.

Groups:
  gpu  every GPU suite: a test target whose main file calls
       skinny_test_support's `gpu_test_main!` (the harness that fails under
       SKINNY_REQUIRE_GPU=1 where no GPU is found); every example of a
       package that has a GPU suite; the `skinny` CLI. Each package's `cuda`
       feature on.
  cpu  every test and example of CPU_PACKAGES (the crates whose CPU paths
       differ on the device machine's AVX-512 host), the dudect timing test
       and the speed guard.
"""
import json
import sys

# The crates whose code paths depend on the CPU's features (the bitsliced,
# single-block and lockstep paths and what is built on them): their suites
# are the ones worth running on an AVX-512 host.
CPU_PACKAGES = ["skinny", "skinny-romulus", "skinny-hash", "skinny-aead", "skinny-many"]
# Programs of the checks/ packages the device machine runs beside them.
CPU_EXTRAS = [("skinny-ct-check", "example", "dudect"), ("skinny-speed-guard", "bin", "speed-guard")]
GPU_MARKER = "gpu_test_main!"


def short(package):
    """A test binary's staged name is <short>-<test>: core-suite, lab-gpu."""
    return "core" if package == "skinny" else package.removeprefix("skinny-")


def is_gpu_suite(target):
    if target["kind"] != ["test"]:
        return False
    try:
        with open(target["src_path"], encoding="utf-8") as f:
            return GPU_MARKER in f.read()
    except OSError:
        return False


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: targets.py SUITES-FILE GROUP... < metadata.json")
    suites_file = sys.argv[1]
    groups = set(sys.argv[2:])
    unknown = groups - {"gpu", "cpu"}
    if unknown or not groups:
        sys.exit(f"targets.py: groups are gpu and cpu, not {' '.join(sorted(unknown)) or 'none'}")
    meta = json.load(sys.stdin)
    members = set(meta["workspace_members"])
    packages = {p["name"]: p for p in meta["packages"] if p["id"] in members}
    warnings = []

    gpu_packages = [n for n, p in packages.items() if any(is_gpu_suite(t) for t in p["targets"])]
    selected = set(gpu_packages) if "gpu" in groups else set()
    if "cpu" in groups:
        for n in CPU_PACKAGES:
            if n in packages:
                selected.add(n)
            else:
                warnings.append(f"no package {n} in the workspace (CPU_PACKAGES in {sys.argv[0]})")
        for n, kind, name in CPU_EXTRAS:
            if n in packages and any(t["kind"][0] == kind and t["name"] == name for t in packages[n]["targets"]):
                selected.add(n)
            else:
                warnings.append(f"no {kind} {name} in package {n} (CPU_EXTRAS in {sys.argv[0]})")

    # The GPU code is built wherever a selected package has it (one feature
    # set for the whole build: every crate compiled once).
    features = sorted(f"{n}/cuda" for n in selected if "cuda" in packages[n]["features"]) if "gpu" in groups else []
    enabled = {n: set(packages[n]["features"].get("default", [])) for n in selected}
    for f in features:
        enabled[f.split("/")[0]].add("cuda")

    def missing(package, t):
        return set(t.get("required-features", [])) - enabled[package]

    wanted = []  # (package, kind, name, group)
    if "gpu" in groups:
        for n in gpu_packages:
            for t in packages[n]["targets"]:
                kind = t["kind"][0]
                if is_gpu_suite(t):
                    wanted.append((n, "test", t["name"], "gpu"))
                elif kind in ("example", "bin"):
                    wanted.append((n, kind, t["name"], "gpu"))
    if "cpu" in groups:
        for n in CPU_PACKAGES:
            for t in packages.get(n, {"targets": []})["targets"]:
                kind = t["kind"][0]
                # What needs a feature left off here is GPU code: the gpu group's.
                if kind in ("test", "example") and not is_gpu_suite(t) and not missing(n, t):
                    wanted.append((n, kind, t["name"], "cpu"))
        wanted += [(n, kind, name, "cpu") for n, kind, name in CPU_EXTRAS if n in selected]

    def buildable(kind, name):
        """Cargo applies --test NAME to every selected package that has such a
        target: each must be buildable with the features on."""
        for p in selected:
            for t in packages[p]["targets"]:
                if t["kind"][0] == kind and t["name"] == name and missing(p, t):
                    return f"{p}'s {kind} {name} needs the features {' '.join(sorted(missing(p, t)))}"
        return None

    args = [a for n in sorted(selected) for a in ("-p", n)]
    if features:
        args += ["--features", " ".join(features)]
    seen = set()
    suites = []
    for package, kind, name, group in wanted:
        why = buildable(kind, name)
        if why:
            warnings.append(f"left out {kind} {name}: {why}")
            continue
        if (kind, name) not in seen:
            seen.add((kind, name))
            args += [f"--{kind}", name]
        if kind == "test":
            suites.append((group, f"{short(package)}-{name}"))
    # Test binaries of other selected packages that share a name come along
    # (cargo builds --test NAME in each); stage them as CPU suites.
    for (kind, name) in sorted(seen):
        if kind != "test":
            continue
        for p in sorted(selected):
            staged = f"{short(p)}-{name}"
            if any(t["kind"][0] == "test" and t["name"] == name for t in packages[p]["targets"]) and \
                    staged not in (s for _, s in suites):
                suites.append(("cpu", staged))
    with open(suites_file, "w", encoding="utf-8") as f:
        f.writelines(f"{group} {name}\n" for group, name in suites)
    for w in warnings:
        print(f"stage: {w}", file=sys.stderr)
    print("\n".join(args))


if __name__ == "__main__":
    main()
