package limit

// JSONShape scans a JSON document's bytes, outside its strings, for how
// deeply its arrays and objects nest and how many values it holds, without
// decoding it: a document nested a million deep, or of a million
// elements, must be refused before a decoder recurses into it or spends
// seconds building it. values is an upper bound: one for the document and
// one for each comma and each opening bracket (an array of n elements
// holds n-1 commas). The scan is about a nanosecond a byte; bytes that are
// not JSON are passed over (the decoder reports them).
func JSONShape[T string | []byte](doc T) (depth, values int) {
	values = 1
	level := 0
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '"':
			for i++; i < len(doc) && doc[i] != '"'; i++ {
				if doc[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			values++
			if level++; level > depth {
				depth = level
			}
		case ']', '}':
			if level > 0 {
				level--
			}
		case ',':
			values++
		}
	}
	return depth, values
}
