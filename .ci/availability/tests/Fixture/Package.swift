// swift-tools-version: 6.2

// The availability check's own fixture (see ../run.py): a package with Apple floors, whose sources
// hold unguarded uses of newer APIs (tagged `[U…]`), every guard the check must accept, and the
// uses Apple's compiler accepts although the Linux interfaces mark the symbol newer.
import PackageDescription

let package = Package(
  name: "AvailabilityFixture",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  targets: [
    .target(
      name: "Lib",
      swiftSettings: [
        .enableExperimentalFeature(
          "AvailabilityMacro=FixtureExecutors:macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0"
        )
      ]
    ),
    .testTarget(name: "LibTests", dependencies: ["Lib"]),
  ],
  swiftLanguageModes: [.v6]
)
