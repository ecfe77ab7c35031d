//! Items: the codec, sizes and checks, hostile input to every decoder.

mod codec;
mod codec_items;
mod hostile;
mod round_trip;
mod shapes;
mod size;
