// linkuser: links an OpenID Connect identity to an existing user (docs/authentication.md "Single sign-on"), for a person
// whose username was taken when they first signed in with the provider.
import { linkIdentity } from '../../src/auth/identities';
import { migrate } from '../../src/store/migrate';
import { command, CommandError, existingUser, UsageError } from './types';

export const linkuser = command({
  name: 'linkuser',
  summary: "let an OpenID Connect identity sign in as an existing user (the refusal page shows the identity's values)",
  details: 'The issuer defaults to OIDC_ISSUER. An identity signs in as one user only.',
  args: ['USERNAME'],
  options: {
    issuer: { type: 'string', value: 'URL', help: "the provider's issuer, as its ID tokens name it (iss)" },
    subject: { type: 'string', value: 'SUB', required: true, help: "the person's subject at the provider (sub)" },
  },
  async run({ args: [username], options }, { runtime: { config, store }, out }) {
    const issuer = options.issuer ?? config.OIDC_ISSUER;
    if (issuer === undefined) throw new UsageError('--issuer is needed when OIDC_ISSUER is not set');
    const subject = options.subject!;
    if (!issuer || !subject || issuer.length > 255 || subject.length > 255)
      throw new UsageError('--issuer and --subject take 1 to 255 characters');
    await migrate(store);
    const user = await existingUser(store, username!);
    const result = await linkIdentity(store, user, issuer, subject);
    if ('linkedTo' in result) throw new CommandError(`That identity signs in as ${result.linkedTo} already.`);
    out(
      'already' in result
        ? `That identity signs in as ${username} already.`
        : `Linked ${issuer} subject ${subject} to ${username}.`,
    );
    return 0;
  },
});
