import Testing

@Test func transportConformanceTestsBuilds() {
    #expect(Bool(true))
}
