//! Series sampling of `domain.md` §14.3, for the AI tool layer (which may not name
//! `core-domain`): the points at indices `⌊i·(len−1)/(max−1)⌋`.

pub use core_domain::ranking::{Downsampled, downsample, downsample_indices};
