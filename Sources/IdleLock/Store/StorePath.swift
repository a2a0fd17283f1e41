// SPDX-License-Identifier: MIT
// Where the store lives, as the store uses it: the folder to open and the
// file's name in that folder. The ABI layer makes one from
// `config.store_path` once it has checked it (ABI/ConfigConversion.swift:
// UTF-8, 1...4000 bytes, not a folder, a file name of at most 244 bytes);
// the store takes it as given.

/// `config.store_path` split at its last slash.
struct StorePath {
    /// The folder, NUL-terminated: "." for a bare file name, "/" for a
    /// file at the root.
    let folder: [UInt8]
    /// The file's name in `folder`: no slash, not "." or "..", no NUL.
    let name: [UInt8]
}
