// SPDX-License-Identifier: MIT
// The target that carries libidlelock's privacy manifest
// (PrivacyInfo.xcprivacy beside this file) into the app as a resource
// bundle, where Xcode's privacy report finds it. It has no code: SwiftPM
// wants a source file in every target.
