#!/bin/sh
# Builds peasant with the `mpi` feature into target-mpi/ and runs the MPI
# test of tests/prove_mpi.rs (mpirun -np 3 on the pawn game 6x6: the same values
# as local workers). Needs Debian's openmpi-bin, libopenmpi-dev and
# libclang-dev. Without mpirun it prints one line and exits 0, unless
# PEASANT_REQUIRE_EXTERNAL=1 (then it fails).
set -eu
cd "$(dirname "$0")/.."
if ! command -v mpirun >/dev/null 2>&1; then
    if [ "${PEASANT_REQUIRE_EXTERNAL:-}" = 1 ]; then
        echo "mpi_check: mpirun is missing (PEASANT_REQUIRE_EXTERNAL=1)" >&2
        exit 1
    fi
    echo "mpi_check: skipped, no mpirun"
    exit 0
fi
cargo build --release --features mpi --target-dir target-mpi --bin peasant
PEASANT_MPI_BIN="$PWD/target-mpi/release/peasant" PEASANT_REQUIRE_EXTERNAL=1 \
    cargo test --release --test prove_mpi mpi_ranks_give_the_local_values -- --nocapture
