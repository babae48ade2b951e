package funcs

import "github.com/zclconf/go-cty/cty/function"

// descriptions holds one line of help per built-in function name, shared by
// both dialects; names missing from a dialect's table are simply unused.
var descriptions = map[string]string{
	"abs":              "`abs` returns the absolute value of the given number.",
	"abspath":          "`abspath` converts a filesystem path to an absolute path, using the working directory for relative paths.",
	"alltrue":          "`alltrue` returns `true` if all elements in a given collection are `true` or `\"true\"`, and also for an empty collection.",
	"anytrue":          "`anytrue` returns `true` if any element in a given collection is `true` or `\"true\"`; `false` for an empty collection.",
	"base64decode":     "`base64decode` decodes a string of Base64 characters and returns the original UTF-8 string.",
	"base64encode":     "`base64encode` applies Base64 encoding to the UTF-8 bytes of a string.",
	"base64gunzip":     "`base64gunzip` decodes a Base64 string and decompresses the gzip data it holds into a string.",
	"base64gzip":       "`base64gzip` compresses a string with gzip and then encodes the result in Base64.",
	"base64sha256":     "`base64sha256` computes the SHA256 hash of a string and encodes the raw hash in Base64.",
	"base64sha512":     "`base64sha512` computes the SHA512 hash of a string and encodes the raw hash in Base64.",
	"basename":         "`basename` takes a filesystem path and removes all except the last portion from it.",
	"bcrypt":           "`bcrypt` computes a hash of the given string using the Blowfish cipher, returning a string in Modular Crypt Format.",
	"can":              "`can` evaluates the given expression and returns whether it produced a result without any errors.",
	"ceil":             "`ceil` returns the closest whole number that is greater than or equal to the given value.",
	"chomp":            "`chomp` removes newline characters at the end of a string.",
	"chunklist":        "`chunklist` splits a single list into fixed-size chunks, returning a list of lists.",
	"cidrcontains":     "`cidrcontains` reports whether an IP address or prefix lies within a given CIDR prefix.",
	"cidrhost":         "`cidrhost` calculates a full host IP address for a given host number within a given IP network address prefix.",
	"cidrnetmask":      "`cidrnetmask` converts an IPv4 address prefix given in CIDR notation into a subnet mask address.",
	"cidrsubnet":       "`cidrsubnet` calculates a subnet address within a given IP network address prefix.",
	"cidrsubnets":      "`cidrsubnets` calculates a sequence of consecutive IP address ranges within a particular CIDR prefix.",
	"coalesce":         "`coalesce` returns the first of its arguments that is not null and not an empty string.",
	"coalescelist":     "`coalescelist` returns the first of its list or tuple arguments that is not empty.",
	"compact":          "`compact` removes null and empty string elements from a list of strings.",
	"concat":           "`concat` combines two or more lists into a single list.",
	"contains":         "`contains` reports whether a given list or set contains a given single value.",
	"convert":          "`convert` converts a value to the given type constraint, applying optional attribute defaults.",
	"csvdecode":        "`csvdecode` decodes a string of CSV data into a list of maps, using the first line as the header.",
	"dirname":          "`dirname` takes a filesystem path and removes the last portion from it.",
	"distinct":         "`distinct` removes duplicate elements from a list, keeping the first occurrence of each.",
	"element":          "`element` retrieves a single element from a list, wrapping around when the index is out of range.",
	"endswith":         "`endswith` reports whether the given string ends with the given suffix.",
	"ephemeralasnull":  "`ephemeralasnull` replaces every ephemeral value within its argument with a null of the same type.",
	"file":             "`file` reads the contents of a file at the given path and returns them as a string.",
	"filebase64":       "`filebase64` reads the contents of a file at the given path and returns them as a Base64-encoded string.",
	"filebase64sha256": "`filebase64sha256` computes the SHA256 hash of a file's contents and encodes the raw hash in Base64.",
	"filebase64sha512": "`filebase64sha512` computes the SHA512 hash of a file's contents and encodes the raw hash in Base64.",
	"fileexists":       "`fileexists` reports whether a file exists at the given path.",
	"filemd5":          "`filemd5` computes the MD5 hash of a file's contents, as hexadecimal digits.",
	"fileset":          "`fileset` enumerates the set of regular file names that match a glob pattern under a directory.",
	"filesha1":         "`filesha1` computes the SHA1 hash of a file's contents, as hexadecimal digits.",
	"filesha256":       "`filesha256` computes the SHA256 hash of a file's contents, as hexadecimal digits.",
	"filesha512":       "`filesha512` computes the SHA512 hash of a file's contents, as hexadecimal digits.",
	"flatten":          "`flatten` replaces any nested lists within a list with their elements, recursively.",
	"floor":            "`floor` returns the closest whole number that is less than or equal to the given value.",
	"format":           "`format` produces a string by formatting a number of other values according to a specification string.",
	"formatdate":       "`formatdate` converts an RFC 3339 timestamp into another timestamp format.",
	"formatlist":       "`formatlist` produces a list of strings by formatting a number of other values according to a specification string.",
	"indent":           "`indent` adds a given number of spaces to the beginnings of all but the first line of a string.",
	"index":            "`index` finds the element index of a given value in a list.",
	"issensitive":      "`issensitive` reports whether the given value is marked as sensitive.",
	"join":             "`join` produces a string by concatenating the elements of lists with the given separator.",
	"jsondecode":       "`jsondecode` interprets a string as JSON and returns the decoded value.",
	"jsonencode":       "`jsonencode` encodes a value as a string of JSON.",
	"keys":             "`keys` returns a list of the keys of a map or object, in lexicographical order.",
	"length":           "`length` returns the number of elements in a collection or the number of characters in a string.",
	"list":             "`list` was removed in Terraform v0.12; use list syntax with `tolist` instead.",
	"log":              "`log` returns the logarithm of a given number in a given base.",
	"lookup":           "`lookup` retrieves the value of a single element from a map, given its key, or a default when it is absent.",
	"lower":            "`lower` converts all cased letters in the given string to lowercase.",
	"map":              "`map` was removed in Terraform v0.12; use object syntax with `tomap` instead.",
	"matchkeys":        "`matchkeys` selects the elements of a list whose corresponding keys appear in a search set.",
	"max":              "`max` takes one or more numbers and returns the greatest of them.",
	"md5":              "`md5` computes the MD5 hash of a string, as hexadecimal digits.",
	"merge":            "`merge` combines maps or objects into one, later arguments taking precedence.",
	"min":              "`min` takes one or more numbers and returns the smallest of them.",
	"nonsensitive":     "`nonsensitive` removes the sensitive marking from a value.",
	"one":              "`one` returns the single element of a list, set or tuple of zero or one elements, or null if it is empty.",
	"parseint":         "`parseint` parses the given string as a representation of an integer in the given base.",
	"pathexpand":       "`pathexpand` replaces a leading `~` in a filesystem path with the current user's home directory.",
	"plantimestamp":    "`plantimestamp` returns the time at which the plan was created, as an RFC 3339 timestamp.",
	"pow":              "`pow` calculates an exponent, raising its first argument to the power of the second.",
	"range":            "`range` generates a list of numbers using a start value, a limit value and a step value.",
	"regex":            "`regex` applies a regular expression to a string and returns the matching substrings.",
	"regexall":         "`regexall` applies a regular expression to a string and returns a list of all matches.",
	"replace":          "`replace` searches a string for a substring, or a regular expression in slashes, and replaces each occurrence.",
	"reverse":          "`reverse` takes a sequence and produces a new sequence of the same length with the elements in reverse order.",
	"rsadecrypt":       "`rsadecrypt` decrypts an RSA-encrypted Base64 ciphertext with a PEM private key.",
	"sensitive":        "`sensitive` marks a value as sensitive so that it is hidden in output.",
	"setintersection":  "`setintersection` returns the elements that are present in all of the given sets.",
	"setproduct":       "`setproduct` finds all of the possible combinations of elements from all of the given sets.",
	"setsubtract":      "`setsubtract` returns the elements of the first set that are not in the second.",
	"setunion":         "`setunion` returns the elements that are present in any of the given sets.",
	"sha1":             "`sha1` computes the SHA1 hash of a string, as hexadecimal digits.",
	"sha256":           "`sha256` computes the SHA256 hash of a string, as hexadecimal digits.",
	"sha512":           "`sha512` computes the SHA512 hash of a string, as hexadecimal digits.",
	"signum":           "`signum` determines the sign of a number: -1, 0 or 1.",
	"slice":            "`slice` extracts some consecutive elements from within a list.",
	"sort":             "`sort` takes a list of strings and returns a new list with them in lexicographical order.",
	"split":            "`split` produces a list by dividing a string at all occurrences of a separator.",
	"startswith":       "`startswith` reports whether the given string begins with the given prefix.",
	"strcontains":      "`strcontains` reports whether a substring occurs within a string.",
	"strrev":           "`strrev` reverses the characters in a string.",
	"substr":           "`substr` extracts a substring from a string by offset and length, counted in characters.",
	"sum":              "`sum` takes a list or set of numbers and returns their sum.",
	"templatefile":     "`templatefile` reads a file and renders its content as a template with the given variables.",
	"templatestring":   "`templatestring` renders a string held elsewhere as a template with the given variables.",
	"textdecodebase64": "`textdecodebase64` decodes Base64 data that was encoded with the given character encoding.",
	"textencodebase64": "`textencodebase64` encodes a string in the given character encoding and then in Base64.",
	"timeadd":          "`timeadd` adds a duration to a timestamp, returning a new timestamp.",
	"timecmp":          "`timecmp` compares two timestamps, returning -1, 0 or 1.",
	"timestamp":        "`timestamp` returns the current date and time as an RFC 3339 timestamp in UTC.",
	"title":            "`title` converts the first letter of each word in the given string to uppercase.",
	"tobool":           "`tobool` converts its argument to a boolean value.",
	"tolist":           "`tolist` converts its argument to a list value.",
	"tomap":            "`tomap` converts its argument to a map value.",
	"tonumber":         "`tonumber` converts its argument to a number value.",
	"toset":            "`toset` converts its argument to a set value.",
	"tostring":         "`tostring` converts its argument to a string value.",
	"transpose":        "`transpose` swaps the keys and list values of a map of lists of strings.",
	"trim":             "`trim` removes the given set of characters from the start and end of a string.",
	"trimprefix":       "`trimprefix` removes the given prefix from the start of a string, if present.",
	"trimspace":        "`trimspace` removes any space characters from the start and end of a string.",
	"trimsuffix":       "`trimsuffix` removes the given suffix from the end of a string, if present.",
	"try":              "`try` evaluates its arguments in turn and returns the result of the first one that does not fail.",
	"type":             "`type` returns the type of a given value (console only).",
	"upper":            "`upper` converts all cased letters in the given string to uppercase.",
	"urldecode":        "`urldecode` decodes a URL-encoded (percent-encoded) string.",
	"urlencode":        "`urlencode` applies URL encoding to a given string.",
	"uuid":             "`uuid` generates a random unique identifier string.",
	"uuidv5":           "`uuidv5` generates a name-based UUID within a namespace, as described in RFC 4122 section 4.3.",
	"values":           "`values` returns a list of the element values of a map or object, in key order.",
	"yamldecode":       "`yamldecode` parses a string as a subset of YAML and returns the value it represents.",
	"yamlencode":       "`yamlencode` encodes a value as a string of YAML.",
	"zipmap":           "`zipmap` constructs a map from a list of keys and a corresponding list of values.",
}

// Description returns the one-line help of a built-in function, accepting
// the core:: form too; "" for names that are not built-ins.
func Description(name string) string {
	if len(name) > len(CoreNamespace) && name[:len(CoreNamespace)] == CoreNamespace {
		name = name[len(CoreNamespace):]
	}
	return descriptions[name]
}

// withDescription attaches the help text of name to fn, keeping whatever
// parameter descriptions fn already has.
func withDescription(name string, fn function.Function) function.Function {
	desc, ok := descriptions[name]
	if !ok {
		return fn
	}
	params := fn.Params()
	paramDescs := make([]string, 0, len(params)+1)
	for _, p := range params {
		paramDescs = append(paramDescs, p.Description)
	}
	if vp := fn.VarParam(); vp != nil {
		paramDescs = append(paramDescs, vp.Description)
	}
	return fn.WithNewDescriptions(desc, paramDescs)
}
