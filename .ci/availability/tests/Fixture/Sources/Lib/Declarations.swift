// Our own declarations newer than the floor: their unguarded callers are errors too.

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
func newOwnThing() -> Int { 1 }

/// Newer on macOS only: only macOS is reported at its unguarded callers.
@available(macOS 14.0, *)
func macOnlyNewer() {}
