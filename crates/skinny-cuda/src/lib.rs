//! SKINNY on NVIDIA GPUs (work in progress: see issue 3).
