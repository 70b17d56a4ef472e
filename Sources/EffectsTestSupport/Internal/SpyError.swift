/// What a ``Spy`` throws when it has no output to give: it has no stub, or its script ran out.
///
/// The problem is reported as a test failure first; the error only stops the code under test from
/// going on with an invented value.
struct SpyError: Error, CustomStringConvertible {
  var description: String
}
