package funcs

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	uuidv5 "github.com/google/uuid"
	uuid "github.com/hashicorp/go-uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/crypto/blowfish"
	"golang.org/x/crypto/ssh"
)

func md5Sum(b []byte) []byte    { s := md5.Sum(b); return s[:] }
func sha1Sum(b []byte) []byte   { s := sha1.Sum(b); return s[:] }
func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }
func sha512Sum(b []byte) []byte { s := sha512.Sum512(b); return s[:] }

func encodeHex(b []byte) string    { return hex.EncodeToString(b) }
func encodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// stringHashFunc hashes the UTF-8 bytes of a string and encodes the digest.
func stringHashFunc(hash func([]byte) []byte, enc func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "str", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(enc(hash([]byte(args[0].AsString())))), nil
		},
	})
}

// md5Func is the hex MD5 digest of a string.
var md5Func = stringHashFunc(md5Sum, encodeHex)

// sha1Func is the hex SHA1 digest of a string.
var sha1Func = stringHashFunc(sha1Sum, encodeHex)

// sha256Func is the hex SHA256 digest of a string.
var sha256Func = stringHashFunc(sha256Sum, encodeHex)

// sha512Func is the hex SHA512 digest of a string.
var sha512Func = stringHashFunc(sha512Sum, encodeHex)

// base64Sha256Func is the Base64 SHA256 digest of a string.
var base64Sha256Func = stringHashFunc(sha256Sum, encodeBase64)

// base64Sha512Func is the Base64 SHA512 digest of a string.
var base64Sha512Func = stringHashFunc(sha512Sum, encodeBase64)

// randReader is opts.Rand, or the operating system's generator.
func (e *env) randReader() io.Reader {
	if e.opts.Rand != nil {
		return e.opts.Rand
	}
	return rand.Reader
}

// uuidFunc returns a random identifier shaped like a UUID (without version bits, as upstream).
func (e *env) uuidFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			id, err := uuid.GenerateUUIDWithReader(e.randReader())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(id), nil
		},
	})
}

// uuidV5Func derives a name-based (SHA1) UUID within a namespace.
var uuidV5Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "namespace", Type: cty.String},
		{Name: "name", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var ns uuidv5.UUID
		switch s := args[0].AsString(); s {
		case "dns":
			ns = uuidv5.NameSpaceDNS
		case "url":
			ns = uuidv5.NameSpaceURL
		case "oid":
			ns = uuidv5.NameSpaceOID
		case "x500":
			ns = uuidv5.NameSpaceX500
		default:
			var err error
			if ns, err = uuidv5.Parse(s); err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("uuidv5() doesn't support namespace %s (%v)", s, err)
			}
		}
		return cty.StringVal(uuidv5.NewSHA1(ns, []byte(args[1].AsString())).String()), nil
	},
})

// bcryptFunc hashes a password with bcrypt at the given cost (default 10).
func (e *env) bcryptFunc() function.Function {
	misspelt := "occured" // Terraform's message keeps this spelling.
	if e.tofu() {
		misspelt = "occurred"
	}
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "str", Type: cty.String}},
		VarParam:     &function.Parameter{Name: "cost", Type: cty.Number},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			cost := bcryptDefaultCost
			if len(args) > 1 {
				if err := gocty.FromCtyValue(args[1], &cost); err != nil {
					return cty.UnknownVal(cty.String), err
				}
			}
			if len(args) > 2 {
				return cty.UnknownVal(cty.String), fmt.Errorf("bcrypt() takes no more than two arguments")
			}
			out, err := bcryptHash([]byte(args[0].AsString()), cost, e.randReader())
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("error %s generating password %s", misspelt, err.Error())
			}
			return cty.StringVal(string(out)), nil
		},
	})
}

const (
	bcryptMinCost     = 4
	bcryptMaxCost     = 31
	bcryptDefaultCost = 10
)

// bcryptEncoding is bcrypt's own Base64 alphabet, unpadded.
var bcryptEncoding = base64.NewEncoding("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789").WithPadding(base64.NoPadding)

// bcryptHash is golang.org/x/crypto/bcrypt's GenerateFromPassword with the
// salt drawn from r, so tests can make bcrypt() deterministic.
func bcryptHash(password []byte, cost int, r io.Reader) ([]byte, error) {
	if len(password) > 72 {
		return nil, fmt.Errorf("bcrypt: password length exceeds 72 bytes")
	}
	if cost < bcryptMinCost {
		cost = bcryptDefaultCost
	}
	if cost > bcryptMaxCost {
		return nil, fmt.Errorf("crypto/bcrypt: cost %d is outside allowed inclusive range %d..%d", cost, bcryptMinCost, bcryptMaxCost)
	}
	salt := make([]byte, 16)
	if _, err := io.ReadFull(r, salt); err != nil {
		return nil, err
	}
	key := append(append([]byte{}, password...), 0)
	c, err := blowfish.NewSaltedCipher(key, salt)
	if err != nil {
		return nil, err
	}
	for i := uint64(0); i < 1<<uint(cost); i++ {
		blowfish.ExpandKey(key, c)
		blowfish.ExpandKey(salt, c)
	}
	data := []byte("OrpheanBeholderScryDoubt")
	for i := 0; i < 24; i += 8 {
		for j := 0; j < 64; j++ {
			c.Encrypt(data[i:i+8], data[i:i+8])
		}
	}
	return []byte(fmt.Sprintf("$2a$%02d$%s%s", cost, bcryptEncoding.EncodeToString(salt), bcryptEncoding.EncodeToString(data[:23]))), nil
}

// rsaDecryptFunc decrypts Base64 PKCS#1 v1.5 ciphertext with a PEM RSA key.
var rsaDecryptFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "ciphertext", Type: cty.String},
		{Name: "privatekey", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s := args[0].AsString()
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "failed to decode input %q: cipher text must be base64-encoded", s)
		}
		raw, err := ssh.ParseRawPrivateKey([]byte(args[1].AsString()))
		if err != nil {
			var msg string
			switch e := err.(type) {
			case asn1.SyntaxError:
				msg = strings.ReplaceAll(e.Error(), "asn1: syntax error", "invalid ASN1 data in the given private key")
			case asn1.StructuralError:
				msg = strings.ReplaceAll(e.Error(), "asn1: structure error", "invalid ASN1 data in the given private key")
			default:
				msg = fmt.Sprintf("invalid private key: %s", e)
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%s", msg)
		}
		key, ok := raw.(*rsa.PrivateKey)
		if !ok {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid private key type %t", raw)
		}
		out, err := rsa.DecryptPKCS1v15(nil, key, b)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decrypt: %s", err)
		}
		return cty.StringVal(string(out)), nil
	},
})
