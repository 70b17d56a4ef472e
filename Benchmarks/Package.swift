// swift-tools-version: 6.2

import PackageDescription

// The release-mode timing harness: `swift run -c release --package-path Benchmarks`.
// Dependency-free: it depends only on the library itself.
let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "swift-effects", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "Benchmarks",
      dependencies: [
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
