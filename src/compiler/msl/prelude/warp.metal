// metalcuda MSL prelude: barriers and warp-level operations.
