/**
 * One e-mail address, as every route takes it: ajv-formats' full `email` (a dot-atom local part, a host name of
 * letters, digits and hyphens), with the lengths mail servers hold to (RFC 5321 §4.5.3.1): at most 64 characters
 * before the `@` and at most 63 in each label of the host name. The whole address is at most 254 characters
 * (each schema's `maxLength`). An address past those limits cannot be delivered to, so a login link or a reply
 * to it would be lost: it is refused when typed instead.
 *
 * The JSON calls' `format: "email"` is this pattern (`app.ts`), and so is the due-diligence form's E-mail field.
 */
export const EMAIL_ADDRESS =
  /^(?=[^@]{1,64}@)[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * A contact address as the portal links it (`mailto:`): one address of at most 254 characters, a host name after
 * the `@`, and none of the characters that would give the link headers, a fragment or a second recipient
 * (`a@b.co?bcc=x%40y.z`, `a@b.co,x@y.z`) or end it (spaces, controls, quotes, angle brackets), nor any that show
 * nothing or reorder the text: format characters (the bidi overrides and marks, zero-width ones), those drawn as
 * nothing, surrogates, private-use and unassigned code points. With U+202E first, `moc.elpmaxe@yrosivda.maet`
 * was shown on every page as team.advisory@example.com while its link mailed yrosivda.maet (found by the
 * twenty-second session's portal probe).
 */
export const CONTACT_EMAIL =
  /^(?=.{1,254}$)[^\s\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}@?#%&,;<>"\\]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/iu;

/** What {@link CONTACT_EMAIL} asks for, in words (after "must be"). */
export const CONTACT_EMAIL_RULE =
  'one e-mail address such as team@advisory.example, without spaces, invisible or text-direction characters, or any of ? # % & , ; < > " \\';
