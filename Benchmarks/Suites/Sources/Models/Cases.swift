import Foundation

/// How many cases each parameterized test runs, and how many each XCTest method loops over:
/// `SUITE_CASES` (2,000 unless set), which `Benchmarks/suites.py` sets.
public let caseCount = Int(ProcessInfo.processInfo.environment["SUITE_CASES"] ?? "") ?? 2_000

/// How many items an importer case imports: 32 fetches and 32 thumbnails, 65 tasks.
public let importedItems = 32
